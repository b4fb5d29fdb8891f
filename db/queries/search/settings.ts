/** The settings a search runs under: bounded, through its indexes, on its generic plan. */
import type { Queryable } from '../../pool.ts';

/**
 * The settings of a search (a search session's, or a transaction's on the embedded database): each statement is bounded (a search
 * that would run longer is cancelled, SQLSTATE 57014, rather than hold a
 * connection), reads through its indexes, and the search statement, named
 * (`findMatchingDocuments`), runs on its generic plan, so a connection plans
 * it once instead of on every search (about a millisecond). The generic plan
 * keeps every branch and decides by its parameters as it runs: each source
 * is gated by a condition on parameters alone, which PostgreSQL evaluates
 * once before reading anything. SET LOCAL takes no parameters; `ms` is a
 * number of ours.
 */
export function searchSettings(ms: number): string {
  return Object.entries(searchSettingValues(ms))
    .map(([name, value]) => `SET LOCAL ${name} = ${value}`)
    .join('; ');
}

/**
 * The same settings as a connection's startup `options` (`-c name=value …`):
 * a connection opened with them is a search session for its whole life, so
 * a search on it needs no transaction to carry them (no BEGIN and COMMIT,
 * two round trips). Only for connections that run nothing but searches.
 */
export function searchSessionOptions(ms: number): string {
  return Object.entries(searchSettingValues(ms))
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
}

function searchSettingValues(ms: number): Record<string, string> {
  // Each candidate source is capped with LIMIT, which tempts the planner into a sequential scan that
  // expects to meet enough matches early; matches of one error cluster together (a seeded 100k table:
  // 80 ms reading 1,400 pages for 200 exact matches), so every search statement reads its indexes.
  return {
    statement_timeout: String(Math.max(1, Math.trunc(ms))),
    enable_seqscan: 'off',
    plan_cache_mode: 'force_generic_plan',
    jit: 'off',
  };
}

/** Applies `searchSettings` to the current transaction (on the embedded database the API opens its search transactions with them: `BEGIN; …`). */
export async function limitSearchStatements(db: Queryable, ms: number): Promise<void> {
  await db.query(searchSettings(ms));
}
