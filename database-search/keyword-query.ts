/**
 * The keywords kind: a record matches when it holds at least half of the
 * query's full-text terms (rounded up), and at least two when the query has
 * two or more. One shared word ("error", "docker") is not a match; it would
 * also make every broad query touch most records. Only when no record holds
 * two of the terms does the search read those holding one of its rare ones
 * (`anyTermQuery`, `rareTerms`).
 *
 * The GIN index cannot say "at least k of n" directly, so the query asks it
 * for a superset it can answer (`prefilterQuery`) and the statement then
 * counts the terms each candidate holds.
 */

import { termOperand } from './term-aliases.ts';

/** Terms a keyword match must hold: half of them, rounded up, and two of two. */
export function minimumTerms(termCount: number): number {
  return Math.max(Math.ceil(termCount / 2), Math.min(termCount, 2));
}

/**
 * Terms a keyword match of a symptom must hold when holding `minimumTerms`
 * leaves fewer matches than a page: a third of them, and two. A symptom
 * typed from memory says more than the record does (`kubectl tries
 * localhost 8080 instead of my cluster, missing kubeconfig`), and its
 * telling words can be few of many; the second stage weighs them.
 */
export function relaxedMinimumTerms(termCount: number): number {
  return Math.min(minimumTerms(termCount), Math.max(Math.ceil(termCount / 3), 2));
}

/**
 * Terms a keyword match must hold when even `relaxedMinimumTerms` found
 * nothing: two (one of one). What reaches this far shares little with any
 * record (a symptom told in other words, a pasted trace whose first terms
 * are the pasting shell's), and a ranked guess by the telling terms it
 * does share beats an empty page; the second stage weighs them by rarity.
 */
export function lastResortMinimumTerms(termCount: number): number {
  return Math.min(termCount, 2);
}

/**
 * A tsquery for records holding any one of `terms`: the prefilter of the
 * search's very last level, over a query's rare terms (`rareTerms`), when no
 * record holds even two of its terms (`lastResortMinimumTerms` found nothing). A paste whose other words are
 * the pasting program's (`错误: 找不到或无法加载主类
 * org.gradle.wrapper.GradleWrapperMain`, a client's exception class before
 * `MOVED 2852 …`) then meets the records holding its one telling term,
 * ranked by its rarity, rather than an empty page.
 */
export function anyTermQuery(terms: readonly string[]): string | null {
  return terms.length === 0 ? null : terms.map(termOperand).join(' | ');
}

/**
 * A term is rare, for `anyTermQuery`, when fewer than one document in a
 * hundred holds it: a class name, a product, a misspelt identifier, not
 * `error` (a quarter of all documents) or `logs`.
 */
export const RARE_TERM_SHARE = 0.01;

/**
 * The rare terms of a query (`RARE_TERM_SHARE`), by `shares` (each term's
 * share of all documents, aligned with `terms`, from the planner's
 * statistics); every term while the shares are unknown (a corpus never
 * analyzed is small, and any term's postings are few).
 */
export function rareTerms(terms: readonly string[], shares: readonly number[] | null): string[] {
  if (shares === null || shares.length !== terms.length) return [...terms];
  return terms.filter((_, i) => shares[i]! < RARE_TERM_SHARE);
}

/** Combinations beyond this make a tsquery the index evaluates slowly. */
const MAX_COMBINATIONS = 128;

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
 * A tsquery (text) that every record holding `k` of `terms` (by default
 * `minimumTerms`) satisfies: exactly "k of n" (an OR of k-term ANDs) while
 * that stays small, else "j of the first n−k+j terms" for the largest j
 * (at least 2) that stays small, which any record holding k of all n terms
 * also satisfies (it misses at most n−k of them). The larger j, the fewer
 * records the prefilter lets through that then hold too few terms: its
 * source is capped before ranking, and rows it reads in vain take the
 * places of matches (a symptom of ten terms read "2 of the first 7" and
 * filled its 200 rows with records holding fewer than five).
 * `terms` are single-term tsquery texts as PostgreSQL prints them ('postgr'),
 * or an alias group of them ('postgr' | 'postgresql', term-aliases.ts).
 */
export function prefilterQuery(queryTerms: readonly string[], k = minimumTerms(queryTerms.length)): string | null {
  const terms = queryTerms.map(termOperand);
  const n = terms.length;
  if (n === 0) return null;
  if (k === 1) return terms[0]!;
  if (binomial(n, k) <= MAX_COMBINATIONS) return groupsQuery(combinations(terms, k));
  let j = 2;
  while (j + 1 < k && binomial(n - k + j + 1, j + 1) <= MAX_COMBINATIONS) j++;
  return groupsQuery(combinations(terms.slice(0, n - k + j), j));
}

function groupsQuery(groups: string[][]): string {
  return groups.map((group) => `(${group.join(' & ')})`).join(' | ');
}

/**
 * When "k of n" (`prefilterQuery`) takes more groups than a tsquery should
 * hold, the prefilter is "2 of n−k+2 terms": the size of that subset, else
 * null. Any subset of that size will do (a record holding k of all n terms
 * misses at most n−k, so holds two of any n−k+2), and the rarest terms
 * leave the fewest candidates: the search statement picks them by the
 * planner's statistics (db/queries/search.ts). Taking the first terms
 * instead, the prefilter of a pasted literal of 16 terms can pair `fail`,
 * `pull`, `imag` and `error`, and match a fifth of all records.
 */
export function rarestPairsSize(termCount: number, k = minimumTerms(termCount)): number | null {
  if (termCount === 0 || k === 1 || binomial(termCount, k) <= MAX_COMBINATIONS) return null;
  return termCount - k + 2;
}

/**
 * A tsquery for records holding all of the query's terms but one (null
 * under four terms, where `prefilterQuery` is already that strict). The
 * loose prefilter of a long query matches thousands of records, and its
 * candidates are capped before ranking; these, which contain (nearly) the
 * whole query, are read through their own capped source so the cap never
 * drops them.
 */
export function nearlyAllTermsQuery(terms: readonly string[]): string | null {
  const n = terms.length;
  if (n < 4) return null;
  return combinations(terms.map(termOperand), n - 1)
    .map((group) => `(${group.join(' & ')})`)
    .join(' | ');
}

/**
 * A tsquery for records holding every term (null without terms): the
 * strictest keyword source, read first. GIN answers an AND from the rarest
 * term's postings, skipping through the others', where an OR of pairs
 * makes it read every posting of every term.
 */
export function allTermsQuery(terms: readonly string[]): string | null {
  return terms.length === 0 ? null : terms.map(termOperand).join(' & ');
}

/** The prefilter as a source of its own: null when a match must hold every term, which `allTermsQuery` already reads. */
export function looserPrefilterQuery(terms: readonly string[]): string | null {
  return minimumTerms(terms.length) === terms.length ? null : prefilterQuery(terms);
}
