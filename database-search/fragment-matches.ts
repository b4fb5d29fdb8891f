/**
 * Mode auto, pasted text met only on a fragment: an exact match on a piece
 * of a query line (a shared traceback line, a message cut before the words
 * that tell two errors apart) scores 6 × its share of the query's words,
 * more than any keyword match can, and kept the keyword source from running
 * at all, so the record holding most of the query's terms was not even a
 * candidate. Such fragment matches are ranked among the keyword matches
 * instead (docs/search.md, Match kinds and modes).
 */
import { type DocumentPage, type DocumentRow, KIND_RANK } from '../db/queries/search.ts';
import { FRAGMENT_WEIGHT, saturatedCount, TERM_WEIGHTING } from './ranking.ts';

/**
 * Whether a candidate of the exact and substring sources matched only a
 * fragment of the query: an exact key short of the whole message, on a
 * record whose literal is neither the message nor one of its whole lines,
 * holding fewer than all of the query's terms. A record whose literal is
 * the pasted query, or a whole line of it, is never ranked among keywords.
 */
export function matchesOnlyAFragment(row: DocumentRow): boolean {
  return (
    row.kind === KIND_RANK.exact &&
    (row.exact_share ?? 1) < 1 &&
    row.literal_equal !== true &&
    row.literal_line !== true &&
    row.coverage < 1
  );
}

/**
 * The keyword matches with the fragment matches among them, as one page of
 * keyword-level rows for the second stage (rerank.ts, BM25F over those with
 * term counts): a fragment match's exact share counts `FRAGMENT_WEIGHT`
 * (the weight of holding every term) in place of the exact weight, added
 * to its keyword score when the keyword sources read it too (else its
 * coverage is put on the BM25F scale). Each row keeps
 * the kind it matched by in `matched_kind`, which the answer reports.
 */
export function withFragmentMatches(
  keywords: DocumentPage,
  fragments: DocumentPage,
  weights: { exact: number; coverage: number; title: number },
): DocumentPage {
  const fragmentOf = new Map(fragments.rows.map((row) => [row.id, row] as const));
  const rows: DocumentRow[] = keywords.rows.map((row) => {
    const fragment = fragmentOf.get(row.id);
    if (fragment === undefined) return row;
    fragmentOf.delete(row.id);
    return { ...row, score: row.score + FRAGMENT_WEIGHT * (fragment.exact_share ?? 0), matched_kind: fragment.kind };
  });
  // The second stage scores keyword matches by BM25F, which gives a record holding a share c of the terms
  // once in its text (none in its title) about c × `held`. A fragment match the keyword sources did not read
  // has no term counts: its coverage, which the statement weighed plainly, is put on that scale.
  const { titleField } = TERM_WEIGHTING;
  const held = (weights.coverage + weights.title) * (saturatedCount(1) / saturatedCount(1 + titleField));
  for (const fragment of fragmentOf.values())
    rows.push({
      ...fragment,
      kind: KIND_RANK.keywords,
      score:
        fragment.score -
        (weights.exact - FRAGMENT_WEIGHT) * (fragment.exact_share ?? 0) -
        (weights.coverage - held) * fragment.scored_coverage,
      matched_kind: fragment.kind,
    });
  // Stable: ties keep the keyword statement's order, then the fragments'.
  rows.sort((a, b) => b.score - a.score);
  // Both pages whole: the union is exact; else it is at least the larger of them.
  const whole = [keywords, fragments].every((page) => page.totalExact && page.total <= page.rows.length);
  return {
    ...keywords,
    total: whole ? rows.length : Math.max(keywords.total, fragments.total, rows.length),
    totalExact: whole,
    rows,
    subjects: new Map([...fragments.subjects, ...keywords.subjects]),
  };
}
