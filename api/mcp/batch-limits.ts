/**
 * Bounds of one POST to /mcp/participate, whatever authenticates it:
 * - a batch holds 1..MCP_MAX_BATCH messages: an empty or larger batch is
 *   refused with HTTP 400 as a JSON-RPC Invalid Request (-32600, `id:
 *   null`), the Error shape as its `data`, like every message refused here;
 * - each request in it spends one unit of the address's read budget, as
 *   one GET would (a POST costs at least one): read-only tool calls and
 *   resource reads mirror a GET, and a listing (resources/list reads the
 *   newest records of every kind) is no cheaper, so a batch of N requests
 *   of any method costs N. Write tools also spend their identity's write
 *   budget (in the shared write submitter);
 * - and the answer pays for its size: a POST whose answer passes
 *   MCP_READ_UNIT_BYTES per unit already spent spends one more unit per
 *   MCP_READ_UNIT_BYTES (`readUnitsOwed`), so a batch of listings is no
 *   cheaper to send than the reads of the same bytes;
 * - the tool results of one POST total at most MCP_MAX_ANSWER_BYTES: a call
 *   whose result would pass it is answered `answer_too_large` instead, so a
 *   batch never buffers an unbounded answer.
 * Kept apart from the transport and authentication so each can change alone.
 */
import type { Config } from '../../core/config.ts';
import { errorBody, errorInfo, type ErrorInfo } from '../../core/errors.ts';

/** JSON-RPC 2.0 error codes used here. */
export const JSON_RPC = { invalidRequest: -32600, invalidParams: -32602 } as const;

interface JsonRpcMessage {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown };
}

/** A refusal of the whole POST: the Error shape, with the JSON-RPC response's `jsonrpc`, `id` and error code. */
export interface BatchRefusal {
  status: 400;
  body: Record<string, unknown>;
}

function invalidRequest(info: ErrorInfo, requestId: string): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: null,
    error: { code: JSON_RPC.invalidRequest, message: info.message, data: errorBody(info, requestId) },
  };
}

/** The messages of a POST, or the refusal of a batch that is empty or too large. */
export function checkBatch(message: unknown, config: Config, requestId: string): BatchRefusal | null {
  if (!Array.isArray(message)) return null;
  let info: ErrorInfo | null = null;
  if (message.length === 0) info = errorInfo('empty_batch');
  else if (message.length > config.MCP_MAX_BATCH)
    info = errorInfo('batch_too_large', { size: message.length, max: config.MCP_MAX_BATCH });
  if (!info) return null;
  return { status: 400, body: invalidRequest(info, requestId) };
}

/** Read-budget units of a POST: one per request it holds (notifications and responses ask for no work), and at least one. */
export function readCostOf(message: unknown): number {
  const messages = (Array.isArray(message) ? message : [message]) as JsonRpcMessage[];
  return Math.max(1, messages.filter((m) => typeof m?.method === 'string' && m.id !== undefined).length);
}

/** Read units still owed for an answer of `answerBytes`, beyond the `spent` ones paid before it was made. */
export function readUnitsOwed(answerBytes: number, spent: number, unitBytes: number): number {
  return Math.max(0, Math.ceil(answerBytes / unitBytes) - spent);
}

/** Counts the bytes of tool results answered in one POST. */
export function createAnswerBudget(maxBytes: number) {
  let spent = 0;
  return {
    /** Spends the result's size; false (and nothing spent) when it would pass the bound. */
    admit(resultBytes: number): boolean {
      if (spent + resultBytes > maxBytes) return false;
      spent += resultBytes;
      return true;
    },
    refusal: (): ErrorInfo => errorInfo('answer_too_large', { max: maxBytes }),
  };
}
