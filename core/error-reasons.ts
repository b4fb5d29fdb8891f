/** Catalog reasons chosen by a value rather than named at the call site. */
import type { Reason } from './errors-data.ts';

/** The 404 reason of each kind of record a client can name by id. */
export const UNKNOWN_RECORD = {
  problem: 'unknown_problem',
  solution: 'unknown_solution',
  discussion: 'unknown_discussion',
  reply: 'unknown_reply',
  agent: 'unknown_agent',
  inbox_item: 'unknown_inbox_item',
} as const satisfies Record<string, Reason>;
