/**
 * The substring kind's index condition (db/migrations/000011.sql): a record
 * containing the normalized query holds, among its `bigrams`, every pair of
 * adjacent whole words inside the query. A word is a run of [a-z0-9]; it is
 * whole when the query has a character that is not one on both sides of it,
 * so the run cannot continue in the record (the query's first and last runs
 * may be cut short: `ECONNREF`, `nnect`). Any subset of those pairs is a
 * condition every substring match meets, so the statement reads the
 * `bigrams` index for them and then checks the whole query with strpos().
 */

/** Pairs longer than this are not stored (a GIN entry must fit in a third of a page). */
export const MAX_PAIR_CHARS = 100;

/** The pairs a query is looked up by: a few are as selective as many, and each costs a posting list. */
const MAX_PAIRS = 4;

/**
 * The longest pairs of adjacent whole words of a normalized query, as stored
 * (`first second`), at most MAX_PAIRS; empty when it has none, and the
 * trigram index is read instead.
 */
export function wholeWordPairs(normalized: string): string[] {
  const runs = [...normalized.matchAll(/[a-z0-9]+/g)];
  const whole = runs.map((run) => run.index > 0 && run.index + run[0].length < normalized.length);
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < runs.length; i++) {
    if (!whole[i] || !whole[i + 1]) continue;
    const pair = `${runs[i]![0]} ${runs[i + 1]![0]}`;
    if (pair.length <= MAX_PAIR_CHARS) pairs.add(pair);
  }
  return [...pairs].sort((a, b) => b.length - a.length).slice(0, MAX_PAIRS);
}
