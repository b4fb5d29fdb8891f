/**
 * JSON-RPC errors of the tool protocol, worded from the error catalog. The
 * SDK answers a thrown value with its numeric `code`, its `message` as is
 * and its `data`; an McpError's message already carries an "MCP error -326xx:"
 * prefix, which clients then doubled, so plain errors are thrown instead.
 */
import { z } from 'zod';
import { errorBody, errorInfo, type ErrorInfo } from '../../core/errors.ts';
import { JSON_RPC } from './batch-limits.ts';

export function protocolError(code: number, info: ErrorInfo, requestId: string): Error {
  return Object.assign(new Error(info.message), { code, data: errorBody(info, requestId) });
}

/** JSON-RPC 2.0's own codes for a message that cannot be read: not JSON, or not a request. */
export const MESSAGE_ERRORS = { parseError: -32700, invalidRequest: -32600 } as const;

/**
 * A JSON-RPC error response for a message that has no id to answer (`id`
 * null, as JSON-RPC 2.0 says), with the Error shape as `data` so a client
 * reading either gets the reason and the request id.
 */
export function rpcErrorBody(code: number, info: ErrorInfo, requestId: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id: null, error: { code, message: info.message, data: errorBody(info, requestId) } };
}

export interface ToolCallParams {
  name: string;
  arguments?: Record<string, unknown>;
}

/** What is wrong with a tools/call's params, naming the field, or null. */
function paramsProblem(params: unknown): { field: string; detail: string } | null {
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(params)) return { field: 'params', detail: 'must be an object with name and arguments' };
  const { name, arguments: args } = params as Record<string, unknown>;
  if (typeof name !== 'string' || name === '')
    return { field: 'params.name', detail: 'must be the name of a tool (a string)' };
  if (args !== undefined && !isObject(args))
    return { field: 'params.arguments', detail: "must be an object of the tool's arguments" };
  return null;
}

/**
 * The schema the SDK checks a tools/call against before our handler runs.
 * Its own schema answers a malformed call -32603 "internal error" with a raw
 * validation dump; this one answers -32602 Invalid params naming the field.
 */
export function toolCallSchema(requestId: string) {
  return z.object({ method: z.literal('tools/call'), params: z.unknown() }).superRefine((request) => {
    const problem = paramsProblem(request.params);
    if (problem) throw protocolError(JSON_RPC.invalidParams, errorInfo('invalid_tool_params', problem), requestId);
  });
}
