/**
 * One line of an operator's import (`npm run ops -- import <file.jsonl>`):
 * a create operation of the registry with the body its API route takes,
 * under a stable key of the knowledge base it comes from. A line passes the
 * same checks as a write: the operation's own body schema, then the secret
 * scanner (core/redact-secrets.ts), then the schema again on the redacted
 * body (a marker may be longer than the secret it replaced).
 *
 *     {"operation":"create_problem","key":"kb-1","body":{"title":"…","body":"…","product":"…"}}
 *     {"operation":"create_solution","key":"kb-1-fix","body":{"problem_id":"kb-1","body":"…"}}
 *
 * A solution's `problem_id` names an existing problem by id, or a problem of
 * an import by its key (on an earlier line, or in an earlier import).
 */
import { z } from 'zod';
import { sha256Hex } from '../core/hash.ts';
import { requestHashOf } from '../core/idempotency.ts';
import { redactBody } from '../core/redact-secrets.ts';
import type { RecordRef } from '../core/types.ts';
import { OPERATIONS } from './registry.ts';
import { RESERVED_KEY, TEXT_PROBLEM_WORDS, unstorable } from '../core/unstorable.ts';

/** The operations an import may carry, and the kind of record each creates. */
export const IMPORTABLE = {
  create_problem: 'problem',
  create_solution: 'solution',
  create_discussion: 'discussion',
} as const satisfies Record<string, RecordRef['type']>;
export type ImportableOperation = keyof typeof IMPORTABLE;

const ImportLineSchema = z.strictObject({
  operation: z.enum(Object.keys(IMPORTABLE) as [ImportableOperation, ...ImportableOperation[]]),
  /** The record's key in the source knowledge base: what makes a second import of it a no-op. */
  key: z.string().min(1).max(200),
  /** When the record was created at the source; the import's time when absent. */
  created_at: z.iso.datetime({ offset: true }).optional(),
  body: z.record(z.string(), z.unknown()),
});

export interface ImportLine {
  /** 1-based line number in the file. */
  line: number;
  operation: ImportableOperation;
  type: 'problem' | 'solution' | 'discussion';
  key: string;
  /** The key in the operation log (`import:` + the key's SHA-256), valid as an Idempotency-Key. */
  idempotencyKey: string;
  /** What a second import of the same key must match. */
  requestHash: string;
  /** The checked body, secrets replaced by markers. */
  body: Record<string, unknown>;
  /** Body fields in which secrets were replaced. */
  redacted: string[];
  createdAt: Date | null;
}

/** A line that cannot be imported, with its number and why. */
export class ImportLineError extends Error {
  readonly line: number;
  readonly reason: string;
  constructor(line: number, reason: string) {
    super(`line ${line}: ${reason}`);
    this.line = line;
    this.reason = reason;
  }
}

/** The operation-log key of an import key: stable, and of the Idempotency-Key shape whatever the source key holds. */
export const importIdempotencyKey = (key: string): string => `import:${sha256Hex(key)}`;

const issuesOf = (error: z.ZodError, prefix: string) =>
  error.issues.map((i) => `${[prefix, ...i.path].join('.')}: ${i.message}`).join('; ');

/** Parses and checks one line; throws ImportLineError with the line number and what is wrong. */
export function parseImportLine(text: string, line: number): ImportLine {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ImportLineError(line, `not JSON (${(error as Error).message})`);
  }
  // The rule every request body meets: found here, in the check pass, not by PostgreSQL in the load.
  const found = unstorable(json);
  if (found && found.problem !== 'reserved_key')
    throw new ImportLineError(line, `${found.field || 'the line'}: ${TEXT_PROBLEM_WORDS[found.problem]}`);
  if (found?.problem === 'reserved_key')
    throw new ImportLineError(line, `${found.field}: the key ${RESERVED_KEY} is reserved`);
  const shape = ImportLineSchema.safeParse(json);
  if (!shape.success) throw new ImportLineError(line, issuesOf(shape.error, '').replace(/^\./, ''));
  const { operation, key, created_at, body } = shape.data;
  const spec = OPERATIONS.find((o) => o.name === operation)!;
  const parsed = spec.schema.safeParse(body);
  if (!parsed.success) throw new ImportLineError(line, issuesOf(parsed.error, 'body'));
  // As a write: nothing of a secret goes past this point, and the redacted body must still fit the limits.
  const redaction = redactBody(parsed.data);
  const checked = redaction.redacted.length ? spec.schema.safeParse(redaction.body) : parsed;
  if (!checked.success) throw new ImportLineError(line, `${issuesOf(checked.error, 'body')} (after redacting secrets)`);
  const createdAt = created_at ? new Date(created_at) : null;
  return {
    line,
    operation,
    type: IMPORTABLE[operation],
    key,
    idempotencyKey: importIdempotencyKey(key),
    requestHash: requestHashOf(operation, undefined, { body: checked.data, created_at: created_at ?? null }),
    body: checked.data,
    redacted: redaction.redacted,
    createdAt,
  };
}
