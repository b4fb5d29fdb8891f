/**
 * The keywords kind: a record matches when it holds at least half of the
 * query's full-text terms (rounded up), and at least two when the query has
 * two or more. One shared word ("error", "docker") is not a match; it would
 * also make every broad query touch most records.
 *
 * The GIN index cannot say "at least k of n" directly, so the query asks it
 * for a superset it can answer (`prefilterQuery`) and the statement then
 * counts the terms each candidate holds.
 */

/** Terms a keyword match must hold: half of them, rounded up, and two of two. */
export function minimumTerms(termCount: number): number {
  return Math.max(Math.ceil(termCount / 2), Math.min(termCount, 2));
}

/** Combinations beyond this make a tsquery the index evaluates slowly. */
const MAX_COMBINATIONS = 64;

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

function combinations<T>(items: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  if (items.length < k) return [];
  const [first, ...rest] = items;
  return [...combinations(rest, k - 1).map((combo) => [first!, ...combo]), ...combinations(rest, k)];
}

/**
 * A tsquery (text) that every record holding `minimumTerms` of `terms`
 * satisfies: exactly "k of n" (an OR of k-term ANDs) while that stays small,
 * else "2 of the first ⌊n/2⌋+2 terms", which any record holding half of all
 * n terms also satisfies (it holds at least 2 of any ⌊n/2⌋+2 of them).
 * `terms` are single-term tsquery texts as PostgreSQL prints them ('postgr').
 */
export function prefilterQuery(terms: readonly string[]): string | null {
  const n = terms.length;
  if (n === 0) return null;
  const k = minimumTerms(n);
  if (k === 1) return terms[0]!;
  const groups = binomial(n, k) <= MAX_COMBINATIONS
    ? combinations(terms, k)
    : combinations(terms.slice(0, Math.floor(n / 2) + 2), 2);
  return groups.map((group) => `(${group.join(' & ')})`).join(' | ');
}
