/**
 * The second ranking stage: reorders the candidates the search statement
 * ranked (db/queries/search.ts, weights in ranking.ts) by what only the
 * whole literal shows. The statement scores an exact match on any key alike
 * (the record's whole literal, or one line of a longer trace), so a pasted
 * error that equals one record's whole literal and a line of another's
 * ties; the record that is that error comes first. Keyword matches are
 * scored again by BM25F (`rerankByTermWeight`); everything else keeps the
 * statement's order.
 */
import { saturatedCount, TERM_WEIGHTING } from './ranking.ts';

export interface Rerankable {
  id: string;
}

/**
 * Candidates whose family's literal, normalized, equals the query's message
 * (the normalized query without its log prefixes) first, in their order;
 * then the rest, in theirs. `literalEquals`: the ids of those candidates,
 * as the search statement tells them (each document keeps the key of its
 * family's normalized literal, db/migrations/000015.sql).
 */
export function rerankByLiteral<T extends Rerankable>(rows: T[], literalEquals: ReadonlySet<string>): T[] {
  const first = rows.filter((row) => literalEquals.has(row.id));
  if (first.length === 0 || first.length === rows.length) return rows;
  return [...first, ...rows.filter((row) => !literalEquals.has(row.id))];
}

export interface KeywordRow extends Rerankable {
  kind: number;
  coverage: number;
  /** The coverage the statement's score counted (plain or idf-weighted share of terms held). */
  scored_coverage?: number;
  score: number;
}

/** How often each of the query's terms occurs in a document (0: not at all), aligned with the terms, and its length in words. */
export interface TermCounts {
  inText: number[];
  inTitle: number[];
  length: number;
}

/**
 * Keyword matches scored by BM25F over the record's text and title: the
 * statement counts every query term alike, so a record sharing the common
 * words of a symptom ("could not", "class", "java") ties with the one
 * sharing its rare ones ("ldap", "cache"), and a near duplicate whose title
 * repeats the symptom's common words passes the record holding its telling
 * word. Each term weighs its inverse document frequency; `shares` is the
 * share of all documents holding each term (the planner's statistics), and
 * without them the candidates' own counts stand in. A term's count in the
 * text (length-normalized) and in the title (weighted as a field) saturates
 * (`TERM_WEIGHTING`). The row's coverage and title share in its score are
 * replaced by its BM25F score over that of a record holding every term once
 * in text and title, weighted as the two were; everything else in the score
 * (signature, prior, trust) stays. Applies only when every row is a keyword
 * match, as `auto` and `keywords` answer them: exact and substring matches
 * are ranked by what they matched.
 */
export function rerankByTermWeight<T extends KeywordRow>(
  rows: T[],
  termCount: number,
  counts: Map<string, TermCounts>,
  shares: number[] | null,
  weights: { coverage: number; title: number },
): T[] {
  if (rows.length < 2 || termCount === 0 || rows.some((row) => row.kind !== 2)) return rows;
  const { b, titleField } = TERM_WEIGHTING;
  const idf =
    shares?.length === termCount
      ? shares.map((share) => Math.log(1 + (1 - share) / share))
      : Array.from({ length: termCount }, (_, i) => {
          const holders = rows.filter((row) => (counts.get(row.id)?.inText[i] ?? 0) > 0).length;
          return Math.log(1 + (rows.length - holders + 0.5) / (holders + 0.5));
        });
  const known = [...counts.values()];
  const averageLength = known.reduce((sum, c) => sum + c.length, 0) / Math.max(1, known.length) || 1;
  const best = idf.reduce((sum, weight) => sum + weight * saturatedCount(1 + titleField), 0);
  if (!(best > 0)) return rows;
  const adjusted = rows.map((row, position) => {
    const c = counts.get(row.id);
    if (!c) return { row, position, score: row.score };
    const lengthNorm = 1 - b + (b * c.length) / averageLength;
    let bm25 = 0;
    let titleHits = 0;
    for (let i = 0; i < termCount; i++) {
      const inTitle = c.inTitle[i] ?? 0;
      if (inTitle > 0) titleHits++;
      const tf = (c.inText[i] ?? 0) / lengthNorm + titleField * inTitle;
      if (tf > 0) bm25 += idf[i]! * saturatedCount(tf);
    }
    const statementShares =
      weights.coverage * (row.scored_coverage ?? row.coverage) + weights.title * (titleHits / termCount);
    const score = row.score - statementShares + (weights.coverage + weights.title) * (bm25 / best);
    return { row, position, score };
  });
  adjusted.sort((x, y) => y.score - x.score || x.position - y.position);
  return adjusted.map((a) => a.row);
}
