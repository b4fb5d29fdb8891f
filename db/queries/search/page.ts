/** The filters and columns every search statement shares, and its rows read as a page of documents. */
import type { TrustSubject } from '../../../core/trust/subject.ts';
import { isDisputedSql, trustSubjectOf, type TrustRecordType, type TrustSubjectRow } from '../trust.ts';
import { termCountsOf, termSharesOf } from '../search-families.ts';
import type { DocumentPage, DocumentRow, SearchFilters } from './types.ts';

/** The filters on `d`; `disputed` names the parameter of the disputed filter, which each query places after its own. */
export const filtersOn = (disputed: string) => `($1::text IS NULL OR d.type = $1::text)
  AND ($2::text IS NULL OR lower(d.product) = lower($2::text))
  AND ($3::text IS NULL OR d.status = $3::text)
  AND ($4::text IS NULL OR ($4::text = 'worked' AND d.worked > 0)
       OR ($4::text = 'partially_worked' AND d.partially_worked > 0) OR ($4::text = 'did_not_work' AND d.did_not_work > 0))
  AND (${disputed}::boolean IS NULL OR ${isDisputedSql('d')} = ${disputed}::boolean)`;

export const TOTALS = `count(*)::int AS total,
  (count(*) FILTER (WHERE type = 'problem'))::int AS problems,
  (count(*) FILTER (WHERE type = 'solution'))::int AS solutions,
  (count(*) FILTER (WHERE type = 'discussion'))::int AS discussions`;
/** What a candidate shows, read only for the rows of the page. */
export const DOCUMENT_COLUMNS = `d.id, d.type, d.title, d.snippet, d.product, d.status, d.worked, d.partially_worked, d.did_not_work`;

export interface PageRow extends Omit<DocumentRow, 'id' | 'in_text' | 'in_title' | 'length'> {
  id: string | null;
  /** Keyword matches: the text's and the title's vectors (`tsv::text`), which `termCountsOf` counts the terms in. */
  tsv: string | null;
  title_tsv: string | null;

  total: number;
  total_exact: boolean;
  /** Without the GIN keyword sources (`MatchShape.gin`): the keyword level was reached and the champion lists were off. */
  lists_off: boolean | null;
  fell_back: boolean | null;
  /**
   * JSON text, read from the first row only: the totals repeat on every row, and text is not parsed per row
   * by the driver (as a float8[] or json column would be). `term_lexemes`: each query term's lexemes
   * (keyword level), for `termCountsOf`.
   */
  term_shares: string | null;
  term_lexemes?: string | null;
  /** `trustSubjectColumnsSql`'s columns, prefixed; null outside `MatchQuery.trust`'s rows. */
  trust_author_id?: string | null;
  trust_current_revision?: number | null;
  trust_confirmer_group?: string | null;
  trust_outcomes?: TrustSubjectRow['outcomes'] | null;
  trust_feedback?: TrustSubjectRow['feedback'] | null;
  problems: number;
  solutions: number;
  discussions: number;
}

/** The page rows of a totals-LEFT-JOIN-page query: one row even when the page is empty. */
export function toDocumentPage(rows: PageRow[]): DocumentPage {
  const head = rows[0]!;
  const termLexemes = head.term_lexemes ? (JSON.parse(head.term_lexemes) as string[][]) : [];
  const subjects = new Map<string, TrustSubject>();
  for (const row of rows) {
    if (row.id === null || row.trust_current_revision === null || row.trust_current_revision === undefined) continue;
    subjects.set(
      row.id,
      trustSubjectOf(row.type as TrustRecordType, row.id, {
        author_id: row.trust_author_id!,
        current_revision: row.trust_current_revision,
        confirmer_group: row.trust_confirmer_group ?? null,
        outcomes: row.trust_outcomes ?? [],
        feedback: row.trust_feedback ?? [],
      }),
    );
  }
  return {
    total: head.total,
    totalExact: head.total_exact,
    fellBack: head.fell_back ?? false,
    termShares: termSharesOf(head.term_shares ? (JSON.parse(head.term_shares) as unknown[]) : null),
    byType: { problem: head.problems, solution: head.solutions, discussion: head.discussions },
    rows: rows
      .filter((r) => r.id !== null)
      .map(
        (
          {
            total: _t,
            total_exact: _e,
            lists_off: _lo,
            fell_back: _f,
            term_shares: _ts,
            term_lexemes: _tl,
            problems: _p,
            solutions: _s,
            discussions: _d,
            trust_author_id: _ta,
            trust_current_revision: _tr,
            trust_confirmer_group: _tg,
            trust_outcomes: _to,
            trust_feedback: _tf,
            tsv,
            title_tsv,
            ...row
          },
          position,
        ) => ({
          ...row,
          id: row.id!,
          position,
          coverage: Number(row.coverage),
          score: Number(row.score ?? 0),
          exact_share: row.exact_share === null || row.exact_share === undefined ? null : Number(row.exact_share),
          scored_coverage: Number(row.scored_coverage ?? row.coverage),
          ...(tsv === null
            ? { in_text: null, in_title: null, length: null }
            : termCountsOf(tsv, title_tsv, termLexemes)),
        }),
      ),
    subjects,
  };
}

export function filterParams(f: SearchFilters): unknown[] {
  return [f.type ?? null, f.product ?? null, f.status ?? null, f.signal ?? null];
}
