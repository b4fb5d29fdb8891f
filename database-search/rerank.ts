/**
 * The second ranking stage: reorders the candidates the search statement
 * ranked (db/queries/search.ts, weights in ranking.ts) by what only the
 * whole literal shows. The statement scores an exact match on any key alike
 * (the record's whole literal, or one line of a longer trace), so a pasted
 * error that equals one record's whole literal and a line of another's
 * ties; the record that is that error comes first. Everything else keeps
 * the statement's order.
 */
import { normalizeLiteral } from './normalize.ts';

export interface Rerankable {
  id: string;
}

/**
 * Candidates whose family's literal, normalized, equals the query's message
 * (the normalized query without its log prefixes) first, in their order;
 * then the rest, in theirs.
 */
export function rerankByLiteral<T extends Rerankable>(rows: T[], message: string, familyLiterals: Map<string, string>): T[] {
  const equal = (row: T) => {
    const literal = familyLiterals.get(row.id);
    return literal !== undefined && normalizeLiteral(literal) === message;
  };
  const first = rows.filter(equal);
  if (first.length === 0 || first.length === rows.length) return rows;
  return [...first, ...rows.filter((row) => !equal(row))];
}

export interface KeywordRow extends Rerankable {
  kind: number;
  coverage: number;
  score: number;
}

export interface Presence {
  held: number[];
  inTitle: number[];
}

/**
 * Keyword matches weighted by how rare each term is among the candidates:
 * the statement counts every query term alike, so a record sharing the
 * common words of a symptom ("could not", "class", "java") ties with the one
 * sharing its rare ones ("ldap", "cache"). Each term gets a BM25-style
 * weight from how many of the window's candidates hold it, and a row's
 * coverage and title share are replaced by their weighted forms in its
 * score; everything else in the score (signature, prior, trust) stays.
 * Applies only when every row is a keyword match, as `auto` and `keywords`
 * answer them: exact and substring matches are ranked by what they matched.
 */
export function rerankByTermWeight<T extends KeywordRow>(
  rows: T[], termCount: number, presence: Map<string, Presence>, weights: { coverage: number; title: number },
): T[] {
  if (rows.length < 2 || termCount === 0 || rows.some((row) => row.kind !== 2)) return rows;
  const holders = new Array<number>(termCount + 1).fill(0);
  for (const row of rows) for (const i of presence.get(row.id)?.held ?? []) holders[i]!++;
  const n = rows.length;
  const idf = holders.map((h) => Math.log(1 + (n - h + 0.5) / (h + 0.5)));
  let total = 0;
  for (let i = 1; i <= termCount; i++) total += idf[i]!;
  if (total === 0) return rows;
  const share = (indexes: number[]) => indexes.reduce((sum, i) => sum + (idf[i] ?? 0), 0) / total;
  const adjusted = rows.map((row, position) => {
    const p = presence.get(row.id);
    if (!p) return { row, position, score: row.score };
    const plainTitle = p.inTitle.length / termCount;
    const score = row.score + weights.coverage * (share(p.held) - row.coverage) + weights.title * (share(p.inTitle) - plainTitle);
    return { row, position, score };
  });
  adjusted.sort((a, b) => b.score - a.score || a.position - b.position);
  return adjusted.map((a) => a.row);
}
