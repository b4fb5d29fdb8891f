/**
 * SQL for search over `search_documents` (db/migrations/000003.sql).
 *
 * Parameters the caller leaves out arrive as NULL, and every branch is
 * guarded by its parameters (`$11 >= 1 AND …`), so a generic plan (the
 * API's, planned once per connection) skips what a query does not use as
 * it runs. The search statement also leaves out of its text the parts a
 * query cannot use (`MatchShape`): a generic plan still starts every node.
 */
import { createHash } from 'node:crypto';
import type { Signal } from '../../core/schemas/fields.ts';
import { queryPrepared, type Queryable } from '../pool.ts';
import { termCountsOf, termLexemesSql, termSharesOf, termSharesSql } from './search-families.ts';
import type { TrustSubject } from '../../core/trust/subject.ts';
import { COUNTER_FEEDBACK_KINDS } from '../../core/trust/rules.ts';
import {
  decayedConfidenceSql,
  isDisputedSql,
  trustSubjectColumnsSql,
  trustSubjectOf,
  type TrustRecordType,
  type TrustSubjectRow,
} from './trust.ts';

/** The weight of each ranking term; the values are database-search/ranking.ts's RANKING_WEIGHTS. */
export interface RankingWeights {
  readonly exact: number;
  readonly substring: number;
  readonly coverage: number;
  readonly title: number;
  readonly signature: number;
  readonly prior: number;
  readonly trust: number;
}

export type DocumentType = 'problem' | 'solution' | 'discussion';

export interface SearchFilters {
  type?: DocumentType;
  product?: string;
  status?: 'open' | 'archived' | 'active';
  signal?: Signal;
  /** false: no disputed records; true: only disputed ones (record_trust). */
  disputed?: boolean;
}

/** Match kinds as ranks: lower is stronger. */
export const KIND_RANK = { exact: 0, substring: 1, keywords: 2 } as const;
export type KindRank = (typeof KIND_RANK)[keyof typeof KIND_RANK];

export interface MatchQuery {
  /** The loosest kind admitted. */
  level: KindRank;
  /** Mode auto: when no exact or substring match is found, look for keyword matches (level 2) instead. */
  fallBack: boolean;
  /**
   * With `fallBack`: the statement leaves the keyword sources out and only says that it would have fallen
   * back (`DocumentPage.fellBack`, no rows); the caller then asks for the keyword level itself.
   */
  deferFallBack?: boolean;
  /** MD5s of the query's exact keys (whole text, lines and line fragments). */
  keys: string[];
  /** Each key's share of the query's words, aligned with `keys` (database-search/ranking.ts). */
  keyWeights: number[];
  /** MD5 of the whole normalized query: matching it covers every token. */
  wholeKey: string;
  /** `%query%` with LIKE's wildcards escaped, or null when too short for trigrams. */
  pattern: string | null;
  /** The normalized query itself, what a substring match contains. */
  needle: string;
  /** The query's pair keys (database-search/substring-query.ts); empty: read the trigram index. */
  pairs: string[];
  /** The query's full-text terms (`findQueryTerms`), what coverage is the share of. */
  terms: string[];
  /** A tsquery of all the terms (keyword-query.ts), or null when the query has none. */
  allTerms: string | null;
  /** A tsquery every keyword match satisfies (keyword-query.ts), or null when `allTerms` is already that. */
  prefilter: string | null;
  /** Terms a keyword match must hold. */
  minTerms: number;
  /**
   * When `prefilter` is "2 of the first m terms" (keyword-query.ts, `rarestPairsSize`): m, and the
   * statement builds it from the m rarest terms instead; else null.
   */
  prefilterRarest?: number | null;
  /** A tsquery for records holding all terms but one (keyword-query.ts), or null under four terms. */
  nearlyAll: string | null;
  /** Discriminating raw tokens of the query as patterns over a record's snippet (database-search/ranking.ts). */
  signature: { hits: string[]; known: string[] };
  /** Whether the signature reads the record's title too: for a symptom in words (`signatureReadsTitle`). */
  signatureTitle: boolean;
  weights: RankingWeights;
  /** Candidates read by the keyword sources before ranking: the bound on the work. */
  candidateCap: number;
  /** The same for the exact and the substring source, which read their best matches first (whole-query keys). */
  strictCap: number;
  /**
   * How the keyword level reads the champion lists (db/migrations/000016.sql); absent, it does not read
   * them (with filters). The bounds are runSearch's (database-search/run-search.ts), said there only.
   */
  champions?: {
    /** Documents changed since the lists' last compaction beyond which the lists are not read. */
    recentCap: number;
    /** Rows read from the top of each term's list. */
    read: number;
    /** Candidates kept of those the lists name (the keyword sources' cap when they are read). */
    cap: number;
  };
  filters: SearchFilters;
  offset: number;
  limit: number;
  /**
   * The statement also reads the trust subjects (db/queries/trust.ts) of the rows at these positions of its
   * answer (after `from`, up to `to`): the page the second stage most often keeps, so a search seldom needs
   * the trust statement's round trip (database-search/candidate-trust.ts).
   */
  trust?: { from: number; to: number };
  /**
   * Keyword level: coverage in the score is the idf-weighted share of the terms a record holds (each term
   * weighs as the second stage weighs it), not the plain share.
   */
  weightedCoverage?: boolean;
  /** Keyword level: a record holding two of the terms is a match, though it holds fewer than `minTerms`. */
  twoTermsMatch?: boolean;
  /** Champion lists: candidates by their weighted sum alone, not by how many terms they hold first. */
  championsByWeight?: boolean;
  /** Champion lists: a document read through a rarer term's postings is credited with every other term it holds. */
  championsHeld?: boolean;
}

export interface DocumentRow {
  id: string;
  type: DocumentType;
  title: string;
  snippet: string;
  product: string | null;
  status: string;
  kind: KindRank;
  coverage: number;
  /** The weighted sum the statement ranked by (database-search/ranking.ts); the second stage adjusts it. */
  score: number;
  /** The coverage the score counted: at the keyword level the idf-weighted share of terms held (`MatchQuery.weightedCoverage`), else `coverage`. */
  scored_coverage: number;
  worked: number;
  partially_worked: number;
  did_not_work: number;
  /** Whether the family's error literal, normalized, equals the query's message (rerank.ts); null when it has none. */
  literal_equal: boolean | null;
  /** Keyword matches: how often each of the query's terms occurs in its text and title, and its length in words. */
  in_text: number[] | null;
  in_title: number[] | null;
  length: number | null;
}

export interface DocumentPage {
  /** Matches counted; a lower bound when `totalExact` is false (a candidate source stopped at its cap). */
  total: number;
  totalExact: boolean;
  /** Mode auto found no exact or substring match and looked for keywords instead. */
  fellBack: boolean;
  /** Keyword level: the share of all documents holding each query term (search-families.ts), or null. */
  termShares: number[] | null;
  byType: Record<DocumentType, number>;
  rows: DocumentRow[];
  /** The trust subjects the statement read (`MatchQuery.trust`), by record id. */
  subjects: Map<string, TrustSubject>;
}

/** The filters on `d`; `disputed` names the parameter of the disputed filter, which each query places after its own. */
const filtersOn = (disputed: string) => `($1::text IS NULL OR d.type = $1::text)
  AND ($2::text IS NULL OR lower(d.product) = lower($2::text))
  AND ($3::text IS NULL OR d.status = $3::text)
  AND ($4::text IS NULL OR ($4::text = 'worked' AND d.worked > 0)
       OR ($4::text = 'partially_worked' AND d.partially_worked > 0) OR ($4::text = 'did_not_work' AND d.did_not_work > 0))
  AND (${disputed}::boolean IS NULL OR ${isDisputedSql('d')} = ${disputed}::boolean)`;

const TOTALS = `count(*)::int AS total,
  (count(*) FILTER (WHERE type = 'problem'))::int AS problems,
  (count(*) FILTER (WHERE type = 'solution'))::int AS solutions,
  (count(*) FILTER (WHERE type = 'discussion'))::int AS discussions`;

/** What ranking reads of a candidate, carried from the index scan that found it. */
const CANDIDATE_COLUMNS = `d.id, d.type, d.family, d.title, d.snippet, d.updated_at, d.exact_keys, d.tsv, d.title_tsv, d.text_norm,
  d.worked, d.partially_worked, d.did_not_work`;

/**
 * How many of the query's alias groups (the CTE `lexemes`, its `groups`) the vector `tsv` holds: 0 without
 * reading anything when the query has none.
 */
const aliasGroupsHeld = (tsv: string) => `CASE WHEN cardinality((SELECT groups FROM lexemes)) = 0 THEN 0
                        ELSE (SELECT count(*)::int FROM unnest((SELECT groups FROM lexemes)) AS g WHERE ${tsv} @@ g) END`;

/** What a candidate shows, read only for the rows of the page. */
const DOCUMENT_COLUMNS = `d.id, d.type, d.title, d.snippet, d.product, d.status, d.worked, d.partially_worked, d.did_not_work`;

interface PageRow extends Omit<DocumentRow, 'id' | 'in_text' | 'in_title' | 'length'> {
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
function toDocumentPage(rows: PageRow[]): DocumentPage {
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
        ({
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
        }) => ({
          ...row,
          id: row.id!,
          coverage: Number(row.coverage),
          score: Number(row.score ?? 0),
          scored_coverage: Number(row.scored_coverage ?? row.coverage),
          ...(tsv === null
            ? { in_text: null, in_title: null, length: null }
            : termCountsOf(tsv, title_tsv, termLexemes)),
        }),
      ),
    subjects,
  };
}

function filterParams(f: SearchFilters): unknown[] {
  return [f.type ?? null, f.product ?? null, f.status ?? null, f.signal ?? null];
}

/**
 * The full-text terms of a normalized query, as single-term tsquery texts
 * ('postgr'): English stems, stop words dropped, each once, in the order
 * they first appear, at most `max`.
 */
export async function findQueryTerms(
  db: Queryable,
  words: string,
  max: number,
  options: { prepared?: boolean } = {},
): Promise<string[]> {
  const r = await queryPrepared<{ term: string }>(
    db,
    options.prepared ? 'ak_search_terms' : undefined,
    `SELECT term FROM unnest(string_to_array(plainto_tsquery('english'::regconfig, $1::text)::text, ' & '))
              WITH ORDINALITY AS t(term, n)
      WHERE term <> '' GROUP BY term ORDER BY min(n) LIMIT $2::int`,
    [words, max],
  );
  return r.rows.map((row) => row.term);
}

/**
 * The full-text terms of each text of `pieces` (database-search/query-terms.ts: the pieces of a query
 * between its runs of white space), in the order `findQueryTerms` lists a whole text's, duplicates kept:
 * one array per piece, aligned with `pieces`, empty for a piece of stop words only.
 */
export async function findPieceTerms(
  db: Queryable,
  pieces: string[],
  options: { prepared?: boolean } = {},
): Promise<string[][]> {
  const r = await queryPrepared<{ query: string }>(
    db,
    options.prepared ? 'ak_search_piece_terms' : undefined,
    `SELECT plainto_tsquery('english'::regconfig, p.text)::text AS query
       FROM unnest($1::text[]) WITH ORDINALITY AS p(text, n) ORDER BY p.n`,
    [pieces],
  );
  return r.rows.map((row) => row.query.split(' & ').filter((term) => term !== ''));
}

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

/**
 * One page of documents matching the query at `level` or stronger, ranked
 * by the weighted sum of database-search/ranking.ts, with each one's strongest
 * kind and its coverage (the share of the query's full-text terms it holds;
 * 1 when it holds the whole normalized query), and totals over the
 * candidates read; for the page's rows also what the second stage
 * (rerank.ts) needs: whether the family's literal is the query's message, and
 * which terms each holds.
 *
 * Each source is read through its own index and capped at `candidateCap`
 * rows before anything is ranked or counted, and reads its best matches
 * first, stopping at the cap: exact records matching the whole query before
 * those matching a line of it; for keywords, records holding every term,
 * then all but one, then the looser prefilter, each read only while the
 * stricter ones left room. A query of common words thus costs at most that
 * many rows per source, and its GIN scans stop at the strictest tsquery
 * that fills the cap (an AND of the terms, which GIN answers from the
 * rarest term's postings, rather than an OR of their pairs).
 *
 * With `fallBack` (mode auto) the keyword sources run only when the exact
 * and substring ones found nothing, in the same statement: `fellBack` says
 * they did. `prepared`: run as a named statement, planned once per
 * connection (the caller's transaction chooses a generic plan); not on the
 * embedded database, whose connections share one session.
 */
export async function findMatchingDocuments(
  db: Queryable,
  q: MatchQuery,
  options: { prepared?: boolean } = {},
): Promise<DocumentPage> {
  const w = q.weights;
  const values = [
    ...filterParams(q.filters),
    q.offset,
    q.limit,
    q.keys,
    q.wholeKey,
    q.pattern,
    q.terms,
    q.level,
    q.prefilter,
    q.keyWeights,
    q.candidateCap,
    q.signature.hits,
    q.signature.known,
    w.exact,
    w.substring,
    w.coverage,
    w.title,
    w.signature,
    w.prior,
    q.minTerms,
    q.nearlyAll,
    q.filters.disputed ?? null,
    w.trust,
    q.pairs,
    q.needle,
    q.allTerms,
    q.fallBack,
    q.strictCap,
    q.prefilterRarest ?? null,
    q.signatureTitle,
    q.champions !== undefined,
    q.champions?.recentCap ?? 0,
    q.champions?.read ?? 0,
    q.champions?.cap ?? 0,
    q.trust?.from ?? 0,
    q.trust?.to ?? 0,
    q.twoTermsMatch ?? false,
    q.championsByWeight ?? false,
    q.weightedCoverage ?? false,
    q.championsHeld ?? false,
  ];
  const run = async (shape: MatchShape) => {
    const statement = matchStatement(shape);
    const r = await queryPrepared<PageRow>(
      db,
      options.prepared ? statement.name : undefined,
      statement.text,
      statement.params.map((n) => values[n - 1]),
    );
    return r.rows;
  };
  const shape = shapeOf(q);
  // Keyword searches without filters are answered from the champion lists whenever they are on (almost
  // always at scale), and the sources read through GIN then read nothing; a statement without them runs
  // about 0.1-0.15 ms faster (its plan has that many fewer nodes to start). When the lists turn out to be
  // off (`lists_off`: no term of the query has one, they are not built, too many documents changed since
  // the last compaction), the statement with every source answers instead, so the answer is the same
  // either way. A young corpus has few lists, so after a search that found them off the next
  // LISTS_OFF_SKIP searches go to that statement directly rather than pay two.
  if (shape.champions && shape.gin) {
    if (listsOff.skip > 0) listsOff.skip--;
    else {
      const rows = await run({ ...shape, gin: false });
      if (rows[0]!.lists_off !== true) return toDocumentPage(rows);
      listsOff.skip = LISTS_OFF_SKIP;
    }
  }
  return toDocumentPage(await run(shape));
}

/** Searches that skip the statement without GIN sources after one found the champion lists off. */
const LISTS_OFF_SKIP = 50;
const listsOff = { skip: 0 };

/**
 * The parts of the search statement a query can use. A part it cannot (a source its mode does not read,
 * the filters when none is set) is left out of the statement's text, not only gated by a parameter: the
 * executor starts every node of a plan on each execution, gated or not, and the whole statement's
 * start-up was about 0.4 ms of every search at 100k (perf over a loop of searches: ExecutorStart 61 % of
 * a statement whose sources were all gated off). Each shape is its own named statement.
 */
interface MatchShape {
  filtered: boolean;
  exact: boolean;
  substring: 'pairs' | 'trigrams' | null;
  /** The keyword level can be reached (mode keywords, or auto falling back). */
  words: boolean;
  champions: boolean;
  /**
   * The keyword sources read through GIN are in the statement (`allTerms`, `nearlyAll`, `looser` say which).
   * False: with the champion lists, the statement reads them alone, and says whether it needed the others
   * (`lists_off`).
   */
  gin: boolean;
  allTerms: boolean;
  nearlyAll: boolean;
  looser: boolean;
  /** Some term is an alias group (two lexemes, database-search/term-aliases.ts), matched as its tsquery. */
  aliases: boolean;
  /** The query has discriminating raw tokens to look for in the candidates (`MatchQuery.signature`). */
  signature: boolean;
  /** Trust subjects are read for some rows (`MatchQuery.trust`). */
  trust: boolean;
}

function shapeOf(q: MatchQuery): MatchShape {
  const words = q.level === KIND_RANK.keywords || (q.fallBack && !q.deferFallBack);
  return {
    filtered: filterParams(q.filters).some((value) => value !== null) || q.filters.disputed !== undefined,
    exact: q.keys.length > 0,
    substring:
      q.level >= KIND_RANK.substring && q.pattern !== null ? (q.pairs.length > 0 ? 'pairs' : 'trigrams') : null,
    words,
    champions: words && q.champions !== undefined,
    gin:
      words &&
      (q.allTerms !== null || q.nearlyAll !== null || q.prefilter !== null || (q.prefilterRarest ?? null) !== null),
    allTerms: words && q.allTerms !== null,
    nearlyAll: words && q.nearlyAll !== null,
    looser: words && (q.prefilter !== null || (q.prefilterRarest ?? null) !== null),
    // A term of one lexeme is one quoted lexeme ('postgr'); more quotes may be a group, or a quote in a lexeme.
    aliases: q.terms.some((term) => (term.match(/'/g)?.length ?? 0) > 2),
    signature: q.signature.hits.length > 0,
    trust: q.trust !== undefined,
  };
}

interface MatchStatement {
  name: string;
  text: string;
  /** The positions (1-based) in findMatchingDocuments's values of the statement's $1, $2, …. */
  params: number[];
}

const matchStatements = new Map<string, MatchStatement>();

function matchStatement(shape: MatchShape): MatchStatement {
  const key = JSON.stringify(shape);
  let statement = matchStatements.get(key);
  if (statement === undefined) {
    const { text, params } = withParametersUsed(matchStatementText(shape));
    statement = {
      name: `ak_search_match_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`,
      text,
      params,
    };
    matchStatements.set(key, statement);
  }
  return statement;
}

/**
 * `text` with its parameters renumbered $1, $2, … in the order of their first numbers, and the old
 * number of each: PostgreSQL infers each parameter's type from its uses, and one the text no longer uses
 * (a part left out) would have none. Comments are dropped (the SQL holds no `--` in a literal).
 */
function withParametersUsed(sql: string): { text: string; params: number[] } {
  // Comments name parameters too (`$8`); the statement is sent without them.
  const text = sql.replace(/--[^\n]*/g, '');
  const params = [...new Set([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  const renumbered = new Map(params.map((n, i) => [n, i + 1]));
  return { text: text.replace(/\$(\d+)/g, (_, n: string) => `$${renumbered.get(Number(n))}`), params };
}

function matchStatementText(shape: MatchShape): string {
  const on = (disputed: string) => (shape.filtered ? filtersOn(disputed) : 'true');
  const groupsHeld = (tsv: string) => (shape.aliases ? aliasGroupsHeld(tsv) : '0');
  // A source left out: no rows, the same columns.
  const none = (src: number) => `SELECT ${CANDIDATE_COLUMNS}, ${src} AS src FROM search_documents d WHERE false`;
  const exact = !shape.exact
    ? none(1)
    : `
       SELECT e.*, 1 AS src FROM (
         (SELECT ${CANDIDATE_COLUMNS} FROM search_documents d
           WHERE $8::text = ANY($7::text[]) AND d.exact_keys @> ARRAY[$8::text] AND ${on('$25')} LIMIT $31::int)
         UNION ALL
         (SELECT ${CANDIDATE_COLUMNS} FROM search_documents d
           WHERE cardinality($7::text[]) > 0 AND d.exact_keys && $7::text[]
             AND NOT ($8::text = ANY($7::text[]) AND d.exact_keys @> ARRAY[$8::text])
             AND ${on('$25')} LIMIT $31::int)) e
        LIMIT $31::int`;
  // Substrings: through the query's pair keys when it has any, checked with strpos (which the
  // trigram index cannot serve, so the planner reads the keys' index alone); else through trigrams.
  const substring =
    shape.substring === 'pairs'
      ? `
       SELECT ${CANDIDATE_COLUMNS}, 2 AS src FROM search_documents d
        WHERE $11::int >= 1 AND $9::text IS NOT NULL AND cardinality($27::text[]) > 0
          AND d.pair_keys @> $27::text[] AND strpos(d.text_norm, $28::text) > 0 AND ${on('$25')} LIMIT $31::int`
      : shape.substring === 'trigrams'
        ? `
       SELECT ${CANDIDATE_COLUMNS}, 2 AS src FROM search_documents d
        WHERE $11::int >= 1 AND $9::text IS NOT NULL AND cardinality($27::text[]) = 0
          AND d.text_norm LIKE $9::text AND ${on('$25')} LIMIT $31::int`
        : none(2);
  const champOff = shape.champions ? 'NOT EXISTS (SELECT FROM champ_on)' : 'true';
  const wordSources = !shape.gin
    ? []
    : [
        shape.allTerms &&
          `
         (SELECT ${CANDIDATE_COLUMNS} FROM search_documents d
           WHERE $29::text IS NOT NULL AND d.tsv @@ (SELECT $29::text::tsquery) AND ${on('$25')} LIMIT $14::int)`,
        shape.nearlyAll &&
          `
         (SELECT ${CANDIDATE_COLUMNS} FROM search_documents d
           WHERE $24::text IS NOT NULL AND d.tsv @@ (SELECT q FROM nearly)
             AND length(d.tsv) - length(ts_delete(d.tsv, (SELECT a FROM lexemes))) + ${groupsHeld('d.tsv')}
                   >= cardinality($10::text[]) - 1
             AND NOT d.tsv @@ (SELECT $29::text::tsquery)
             AND ${on('$25')} LIMIT $14::int)`,
        shape.looser &&
          `
         (SELECT ${CANDIDATE_COLUMNS} FROM search_documents d
           WHERE (SELECT q FROM looser) IS NOT NULL AND d.tsv @@ (SELECT q::tsquery FROM looser)
             -- Not read by a stricter source: holds fewer terms than all but one (than all under four terms).
             AND length(d.tsv) - length(ts_delete(d.tsv, (SELECT a FROM lexemes))) + ${groupsHeld('d.tsv')}
                   < cardinality($10::text[]) - CASE WHEN $24::text IS NULL THEN 0 ELSE 1 END
             AND ${on('$25')} LIMIT $14::int)`,
      ].filter((source) => typeof source === 'string');
  // Each tsquery is parsed once (a subquery), not again for every row the heap scan rechecks.
  // Keywords, strictest first: every term, all but one, then the prefilter (k of n); each excludes
  // what a stricter one reads, and the outer LIMIT stops before a looser one when the cap is full.
  const words = [
    shape.champions &&
      `
       SELECT ${CANDIDATE_COLUMNS}, 3 AS src FROM champ_top c JOIN search_documents d ON d.id = c.id`,
    wordSources.length > 0 &&
      `
       SELECT k.*, 3 AS src FROM (${wordSources.join(`
         UNION ALL`)}) k
        WHERE (SELECT n FROM level_n) = 2 AND ${champOff}
        LIMIT $14::int`,
  ].filter((source) => typeof source === 'string');
  const wordCtes = !shape.words
    ? ''
    : `
     -- The share of all documents holding each term (planner statistics): the second stage's weights, and
     -- which terms a long query's prefilter pairs: any m of them will do (keyword-query.ts), the rarest
     -- leave the fewest candidates (in query order without statistics).
     share AS MATERIALIZED (SELECT ${termSharesSql('$10')} AS s),
     -- Each term's idf (as the second stage weighs it; 1 each without statistics): what weighted coverage sums.
     term_idf AS MATERIALIZED (
       SELECT q.t::tsquery AS q,
              coalesce(ln(1 + (1 - (SELECT s FROM share)[q.n::int]) / (SELECT s FROM share)[q.n::int]), 1) AS idf
         FROM unnest($10::text[]) WITH ORDINALITY AS q(t, n)
     ),
     idf_total AS MATERIALIZED (SELECT nullif(sum(idf), 0) AS total FROM term_idf),${
       !shape.gin || !shape.looser
         ? ''
         : `
     rarest AS MATERIALIZED (
       SELECT q.t, q.n FROM unnest($10::text[]) WITH ORDINALITY AS q(t, n) CROSS JOIN share
        WHERE $32::int IS NOT NULL ORDER BY share.s[q.n], q.n LIMIT $32::int
     ),
     looser AS MATERIALIZED (
       SELECT CASE WHEN $32::int IS NULL THEN $12::text
                   ELSE (SELECT string_agg(format('((%s) & (%s))', a.t, b.t), ' | ' ORDER BY a.n, b.n)
                           FROM rarest a JOIN rarest b ON a.n < b.n) END AS q
     ),`
     }${
       !shape.gin || !shape.nearlyAll
         ? ''
         : `
     -- Records holding all terms but one hold three of any four; the index is asked for three of the four
     -- rarest (which reads four posting lists, where the OR of every all-but-one group reads every term's)
     -- and each row's terms are then counted: the same rows, in the same order.
     rarest_four AS MATERIALIZED (
       SELECT q.t, q.n FROM unnest($10::text[]) WITH ORDINALITY AS q(t, n) CROSS JOIN share
        WHERE $24::text IS NOT NULL ORDER BY share.s[q.n], q.n LIMIT 4
     ),
     nearly AS MATERIALIZED (
       SELECT string_agg(g.q, ' | ' ORDER BY g.n)::tsquery AS q FROM (
         SELECT x.n, '(' || string_agg('(' || o.t || ')', ' & ' ORDER BY o.n) || ')' AS q
           FROM rarest_four x JOIN rarest_four o ON o.n <> x.n GROUP BY x.n) g
     ),`
     }${
       !shape.champions
         ? ''
         : `
     -- Champion lists (db/migrations/000016.sql): at the keyword level, without filters, when the lists are
     -- built, at least one term has one and few documents changed since they were last compacted. Each term
     -- with a list is read from its top (a B-tree range of $36 rows), each rarer term through GIN (a short
     -- posting list), the documents changed since the lists' watermark directly; the candidates are those
     -- known to hold the most terms, then the largest idf-weighted sum of their weights (BM25F's, as the
     -- second stage scores them).
     champ_state AS MATERIALIZED (
       SELECT s.watermark FROM search_champion_state s WHERE $34::boolean AND s.singleton AND s.built AND (SELECT n FROM level_n) = 2
     ),
     champ_on AS MATERIALIZED (
       SELECT watermark FROM champ_state
        WHERE EXISTS (SELECT FROM term t JOIN search_champion_terms c ON c.lexeme = ANY(t.lexemes))
          AND (SELECT count(*) FROM (SELECT FROM search_documents r
                                      WHERE r.changed_xid >= (SELECT watermark FROM champ_state) LIMIT $35::int) x) < $35::int
     ),
     -- Each lexeme of each term (an alias group has two), with its term's idf (as the second stage weighs it)
     -- and whether it has a list.
     champ_term AS MATERIALIZED (
       SELECT t.n, l.lexeme, quote_literal(l.lexeme)::tsquery AS q,
              ln(1 + (1 - coalesce((SELECT s FROM share)[t.n::int], 0.5)) / coalesce((SELECT s FROM share)[t.n::int], 0.5)) AS idf,
              EXISTS (SELECT FROM search_champion_terms c WHERE c.lexeme = l.lexeme) AS listed
         FROM term t CROSS JOIN unnest(t.lexemes) AS l(lexeme) WHERE EXISTS (SELECT FROM champ_on)
     ),
     -- Read through their own index, then matched: joined to the terms, the planner would AND the GIN index in.
     champ_recent AS MATERIALIZED (
       SELECT r.id, r.tsv FROM search_documents r WHERE r.changed_xid >= (SELECT watermark FROM champ_on)
     ),
     champ_hits AS MATERIALIZED (
       SELECT c.id, t.n, c.weight * t.idf AS weight
         FROM champ_term t
        CROSS JOIN LATERAL (SELECT s.id, s.weight FROM search_champions s WHERE s.lexeme = t.lexeme
                             ORDER BY s.weight DESC, s.id LIMIT $36::int) c
        WHERE t.listed
       UNION ALL
       -- A rarer term's documents are not weighed one by one: its idf alone puts them first among equals.
       -- For a symptom ($43) each is credited with every other term it holds too (a few hundred documents
       -- at most, each a lookup per term): a common term's list stops at its top rows, and the record
       -- holding 'redis' and 'refused' in a long text is not among them.
       SELECT d.id, h.n, 1.6 * h.idf
         FROM champ_term t CROSS JOIN LATERAL (SELECT d.id, d.tsv FROM search_documents d WHERE d.tsv @@ t.q) d
        CROSS JOIN LATERAL (SELECT o.n, o.idf FROM champ_term o WHERE o.n = t.n AND o.lexeme = t.lexeme OR ($43::boolean AND o.n <> t.n AND d.tsv @@ o.q)) h
        WHERE NOT t.listed
       UNION ALL
       SELECT d.id, t.n, 1.6 * t.idf
         FROM champ_recent d JOIN champ_term t ON t.listed AND d.tsv @@ t.q
     ),
     -- Known to hold the most terms first, then the largest weighted sum; for a symptom in words ($41) by the
     -- weighted sum alone, as BM25 ranks: two rare terms outweigh three common ones.
     champ_top AS MATERIALIZED (
       SELECT id FROM (SELECT id, n, max(weight) AS weight FROM champ_hits GROUP BY id, n) x
        GROUP BY id ORDER BY CASE WHEN $41::boolean THEN 0 ELSE count(*) END DESC, sum(weight) DESC, id LIMIT $37::int
     ),`
     }`;
  return `WITH term AS MATERIALIZED (${termLexemesSql('$10')}),
     -- The terms as one array of lexemes: a document holds as many of them as ts_delete removes from its
     -- vector, counted in one pass rather than one tsquery match per term. An alias group (one term of two
     -- spellings, database-search/term-aliases.ts) is matched as its tsquery instead, so a record holding
     -- both spellings holds the term once.
     lexemes AS MATERIALIZED (
       SELECT coalesce(array_agg(t.lexemes[1]) FILTER (WHERE cardinality(t.lexemes) = 1), '{}') AS a,
              coalesce(array_agg(($10::text[])[t.n::int]::tsquery) FILTER (WHERE cardinality(t.lexemes) > 1), '{}') AS groups
         FROM term t),
     -- Records equal to the whole query (or one of its lines equal to theirs) first: they score highest.
     exact_hits AS MATERIALIZED (${exact}),
     substring_hits AS MATERIALIZED (${substring}),
     level AS MATERIALIZED (
       SELECT $30::boolean AND NOT EXISTS (SELECT FROM exact_hits) AND NOT EXISTS (SELECT FROM substring_hits) AS fell_back
     ),
     level_n AS MATERIALIZED (SELECT fell_back, CASE WHEN fell_back THEN 2 ELSE $11::int END AS n FROM level),${wordCtes}
     word_hits AS MATERIALIZED (${
       words.length > 0
         ? words.join(`
       UNION ALL`)
         : none(3)
     }),
     -- Which source read each id: one that stopped at its cap makes the totals a lower bound. Each source
     -- carries the columns ranking reads, so no candidate is looked up again; a record the substring
     -- source read is kept from that one, which says it contains the query.
     hits AS (SELECT * FROM exact_hits UNION ALL SELECT * FROM substring_hits UNION ALL SELECT * FROM word_hits),
     source AS MATERIALIZED (SELECT DISTINCT ON (id) *, src = 2 AS contains FROM hits ORDER BY id, src = 2 DESC),
     feature AS MATERIALIZED (
       SELECT d.id, d.type, d.updated_at, exact, held.n AS held, c.contains,
              CASE WHEN exact > 0 THEN 0 WHEN c.contains THEN 1 ELSE 2 END AS kind,
              ${
                !shape.words
                  ? '0::float8'
                  : `CASE WHEN l.n = 2 AND cardinality($10::text[]) > 0
                   THEN (length(d.title_tsv) - length(ts_delete(d.title_tsv, (SELECT a FROM lexemes)))
                         + ${groupsHeld('d.title_tsv')})::float8 / cardinality($10::text[])
                   ELSE 0 END`
              } AS title_share,
              -- The idf-weighted share of the terms held (keyword level, $42): null where the plain share is scored.
              ${
                !shape.words
                  ? 'NULL::float8'
                  : `CASE WHEN $42::boolean AND l.n = 2 AND cardinality($10::text[]) > 0
                   THEN (SELECT coalesce(sum(i.idf), 0) FROM term_idf i WHERE d.tsv @@ i.q) / (SELECT total FROM idf_total)
                   END`
              } AS weighted,
              -- Read from the family's head (a solution's problem): its snippet, the raw literal, and for a symptom
              -- in words ($33) its title too (a record titled 'waitress cannot bind port 80' carries port 80 though
              -- its literal names none); only when the query has such tokens (a generic plan would otherwise read
              -- the head first).
              ${
                !shape.signature
                  ? '0::float8'
                  : `CASE WHEN cardinality($15::text[]) > 0 THEN
                (SELECT coalesce(sum(CASE WHEN raw.text ~* s.hit THEN 1 WHEN raw.text ~* s.known THEN -1 ELSE 0 END), 0)
                   FROM unnest($15::text[], $16::text[]) AS s(hit, known)
                  -- A problem (or discussion) heads its own family: its snippet (and title) came with it.
                  CROSS JOIN (SELECT CASE WHEN d.family = d.id THEN CASE WHEN $33::boolean THEN d.title || ' ' || d.snippet ELSE d.snippet END
                                          ELSE (SELECT CASE WHEN $33::boolean THEN h.title || ' ' || h.snippet ELSE h.snippet END
                                                  FROM search_documents h WHERE h.id = d.family) END AS text) raw
                  )::float8
                ELSE 0 END`
              } AS signature,
              ln(1 + d.worked + 0.5::float8 * d.partially_worked) - ln(1 + d.did_not_work) AS prior,
              ${decayedConfidenceSql('t')} - coalesce(t.disputed, false)::int AS trust
         FROM source d
        CROSS JOIN level_n l
         LEFT JOIN record_trust t ON t.record_type = d.type AND t.record_id = d.id
        CROSS JOIN LATERAL (SELECT d.exact_keys @> ARRAY[$8::text] AS whole) w
        CROSS JOIN LATERAL (
          SELECT CASE WHEN whole THEN 1
                      WHEN d.exact_keys && $7::text[]
                        THEN (SELECT max(k.weight) FROM unnest($7::text[], $13::float8[]) AS k(hash, weight) WHERE k.hash = ANY(d.exact_keys))
                      ELSE 0 END AS exact) e
        -- A record equal to the whole query holds every term; only the others are counted, once each
        -- (OFFSET 0 keeps the count from being inlined into every expression that reads it).
        CROSS JOIN LATERAL (
          SELECT CASE WHEN whole THEN cardinality($10::text[])
                      ELSE length(d.tsv) - length(ts_delete(d.tsv, (SELECT a FROM lexemes))) + ${groupsHeld('d.tsv')}
                 END AS n OFFSET 0) held
        -- Whether it contains the whole query: the substring source checked its own rows; of the others only
        -- records holding all terms but one (a last word cut short) can, and none when the substring level
        -- already found nothing.
        CROSS JOIN LATERAL (
          SELECT whole OR d.contains
                 OR (NOT l.fell_back AND $9::text IS NOT NULL AND (l.n = 1 OR held.n >= cardinality($10::text[]) - 1)
                     AND strpos(d.text_norm, $28::text) > 0) AS contains) c
     ), matched AS MATERIALIZED (
       SELECT id, type, updated_at, kind, coverage, scored_coverage,
              $17::float8 * exact + $18::float8 * contains::int + $19::float8 * scored_coverage
                + $20::float8 * title_share + $21::float8 * signature + $22::float8 * prior + $26::float8 * trust AS score
         FROM (SELECT f.*, CASE WHEN contains OR cardinality($10::text[]) = 0 THEN 1
                                ELSE held::float8 / cardinality($10::text[]) END AS coverage,
                      CASE WHEN contains OR cardinality($10::text[]) = 0 THEN 1
                           ELSE coalesce(weighted, held::float8 / cardinality($10::text[])) END AS scored_coverage
                 FROM feature f WHERE kind <= (SELECT n FROM level_n)
                  AND (kind < 2 OR held >= $23::int OR ($40::boolean AND held >= 2))) scored
     )
     SELECT totals.*, page.kind, page.coverage, page.scored_coverage, page.score, ${DOCUMENT_COLUMNS}, ${
       shape.trust
         ? 'subject.author_id AS trust_author_id, subject.current_revision AS trust_current_revision, subject.confirmer_group AS trust_confirmer_group, subject.outcomes AS trust_outcomes, subject.feedback AS trust_feedback'
         : 'NULL::int AS trust_current_revision'
     },
            -- What the second stage reads of the page's rows: whether the family's literal is the query's
            -- message (its key, $8), and (keyword matches) its vectors, in which toDocumentPage counts the terms.
            d.literal_key = $8::text AS literal_equal,
            ${
              shape.words
                ? 'CASE WHEN page.kind = 2 THEN d.tsv::text END AS tsv, CASE WHEN page.kind = 2 THEN d.title_tsv::text END AS title_tsv'
                : 'NULL::text AS tsv, NULL::text AS title_tsv'
            }
       FROM (SELECT ${TOTALS},
                    (SELECT count(*) FROM exact_hits) < $31::int AND (SELECT count(*) FROM substring_hits) < $31::int
                      AND (SELECT count(*) FROM word_hits) < $14::int AND ${champOff} AS total_exact,
                    ${shape.champions && !shape.gin ? '(SELECT n FROM level_n) = 2 AND NOT EXISTS (SELECT FROM champ_on)' : 'NULL::boolean'} AS lists_off,
                    (SELECT fell_back FROM level) AS fell_back,
                    ${shape.words ? 'CASE WHEN (SELECT n FROM level_n) = 2 THEN array_to_json((SELECT s FROM share))::text END' : 'NULL::text'} AS term_shares,
                    ${shape.words ? '(SELECT json_agg(t.lexemes ORDER BY t.n) FROM term t)::text' : 'NULL::text'} AS term_lexemes
               FROM matched) totals
       LEFT JOIN LATERAL (
         SELECT id, kind, coverage, scored_coverage, score, updated_at,
                row_number() OVER (ORDER BY score DESC, updated_at DESC, id DESC) AS rn FROM matched
          ORDER BY score DESC, updated_at DESC, id DESC
          OFFSET $5::int LIMIT $6::int
       ) page ON true
       LEFT JOIN search_documents d ON d.id = page.id${
         !shape.trust
           ? ''
           : `
       -- The trust subjects of the rows after position $38 up to $39 (OFFSET 0 keeps the positions a gate).
       LEFT JOIN LATERAL (
         SELECT ${trustSubjectColumnsSql(`ARRAY[${COUNTER_FEEDBACK_KINDS.map((kind) => `'${kind}'`).join(', ')}]::text[]`)}
           FROM (SELECT 'problem'::text AS type, r.id, r.author_id, r.current_revision FROM problems r WHERE d.type = 'problem' AND r.id = d.id
                 UNION ALL
                 SELECT 'solution'::text, r.id, r.author_id, r.current_revision FROM solutions r WHERE d.type = 'solution' AND r.id = d.id) h
           LEFT JOIN identity_admissions a ON a.identity_id = h.author_id
          WHERE page.rn > $38::int AND page.rn <= $39::int
         OFFSET 0) subject ON true`
       }
      ORDER BY page.score DESC, page.updated_at DESC, page.id DESC`;
}

/** Rows an empty query counts before it answers "at least this many" (`total_exact: false`). */
export const NEWEST_COUNT_CAP = 1000;

/**
 * One page of all documents passing the filters, newest first: what an
 * empty query lists. The totals count at most NEWEST_COUNT_CAP rows (by
 * type), so listing stays an index walk of a page however large the table.
 */
export async function listNewestDocuments(
  db: Queryable,
  filters: SearchFilters,
  offset: number,
  limit: number,
  options: { prepared?: boolean } = {},
): Promise<DocumentPage> {
  const r = await queryPrepared<PageRow>(
    db,
    options.prepared ? 'ak_search_newest' : undefined,
    `SELECT totals.*, page.* FROM (SELECT ${TOTALS}, count(*) < $7::int AS total_exact FROM (
       SELECT d.type FROM search_documents d WHERE ${filtersOn('$8')} ORDER BY d.created_at DESC, d.id DESC LIMIT $7::int) d) totals
     LEFT JOIN LATERAL (
       SELECT ${KIND_RANK.keywords} AS kind, 0 AS coverage, 0 AS score, ${DOCUMENT_COLUMNS},
              NULL::boolean AS literal_equal, NULL::text AS tsv, NULL::text AS title_tsv
         FROM search_documents d WHERE ${filtersOn('$8')}
        ORDER BY d.created_at DESC, d.id DESC OFFSET $5::int LIMIT $6::int
     ) page ON true`,
    [...filterParams(filters), offset, limit, NEWEST_COUNT_CAP, filters.disputed ?? null],
  );
  return toDocumentPage(r.rows);
}

/**
 * Folds the search documents changed since the champion lists' last compaction into them
 * (db/migrations/000016.sql), when at least `minChanged` are waiting, and builds every list when they
 * were never built or a fifth of the corpus changed since. Returns how many it folded (-1: it built them).
 * Run by the worker after render passes, off the commit transaction.
 */
export async function compactSearchChampions(db: Queryable, minChanged: number): Promise<number> {
  const r = await db.query<{ folded: number }>('SELECT ak_search_compact_champions($1::int) AS folded', [minChanged]);
  return r.rows[0]!.folded;
}

/**
 * The render worker folds the documents changed since the champion lists' last compaction into them once
 * this many are waiting, at most every 2 s (worker/runtime.ts); a search reads those documents directly
 * meanwhile, and stops using the lists past CHAMPION_RECENT_CAP (database-search/run-search.ts). Fewer
 * may wait for as long as writes are quiet: that is not a lag.
 */
export const CHAMPION_COMPACT_AT = 100;

export interface ChampionState {
  built: boolean;
  /** Documents stamped since the last compaction: every keyword search reads these directly until they are folded in. */
  unfolded: number;
  /** Once a compaction is due (CHAMPION_COMPACT_AT waiting), how long the oldest of them has waited, by its last update; else 0. */
  lagSeconds: number;
}

/**
 * How far the champion lists are behind the documents (operator status and metrics): a compaction that
 * keeps failing shows as a growing `lagSeconds` and `unfolded`, and, past CHAMPION_RECENT_CAP, as
 * keyword searches that no longer use the lists. Before the first build every document waits, and
 * the first write's pass builds them; that is not counted as lag either.
 */
export async function readChampionState(db: Queryable): Promise<ChampionState> {
  const r = await db.query<ChampionState>(
    `SELECT s.built, w.unfolded,
            CASE WHEN s.built AND w.unfolded >= $1::int
                 THEN extract(epoch FROM clock_timestamp() - w.oldest)::float8 ELSE 0 END AS "lagSeconds"
       FROM search_champion_state s
      CROSS JOIN LATERAL (SELECT count(*)::int AS unfolded, min(d.updated_at) AS oldest
                            FROM search_documents d WHERE d.changed_xid >= s.watermark) w`,
    [CHAMPION_COMPACT_AT],
  );
  return r.rows[0]!;
}

/**
 * Builds every champion list again (db/migrations/000016.sql): what the first compaction does, and what
 * a bulk load (the seed, the evaluation) runs itself. `listSize` and `minDocs` default to the stored ones.
 */
export async function buildSearchChampions(db: Queryable, listSize?: number, minDocs?: number): Promise<void> {
  await db.query('SELECT ak_search_build_champions($1::int, $2::int)', [listSize ?? null, minDocs ?? null]);
}

/**
 * Brings the search documents up to date with up to `maxRows` of the changes commits noted
 * (db/migrations/000021.sql, ak_search_catch_up), the oldest first, in one transaction of its own
 * unless `db` is already in one. Returns when each change it indexed was noted (epoch milliseconds):
 * an empty list when nothing was waiting.
 */
export async function catchUpSearchDocuments(db: Queryable, maxRows: number): Promise<number[]> {
  const r = await db.query<{ noted: number[] }>('SELECT ak_search_catch_up($1::int) AS noted', [maxRows]);
  return r.rows[0]!.noted;
}

/** How many noted changes one catch-up takes: enough to amortize each family refresh's planning, few enough to commit in tens of milliseconds. */
export const SEARCH_CATCH_UP_BATCH = 500;

/** Catches up until nothing is waiting (a bulk load, a test that searches what it just wrote). Returns how many changes it indexed. */
export async function searchDocumentsCaughtUp(db: Queryable, maxRows = 10_000): Promise<number> {
  let total = 0;
  for (;;) {
    const noted = await catchUpSearchDocuments(db, maxRows);
    total += noted.length;
    if (noted.length > 0) continue;
    // Rows another catch-up holds are skipped: wait for its commit.
    if ((await readSearchDocumentsLag(db)).pending === 0) return total;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface SearchDocumentsLag {
  /** Changes committed and not yet in the search documents. */
  pending: number;
  /** How long the oldest of them has waited; 0 when none. */
  oldestSeconds: number;
}

/** How far the search documents are behind the commits (operator status and metrics). */
export async function readSearchDocumentsLag(db: Queryable): Promise<SearchDocumentsLag> {
  const r = await db.query<SearchDocumentsLag>(
    `SELECT count(*)::int AS pending,
            coalesce(extract(epoch FROM clock_timestamp() - min(queued_at)), 0)::float8 AS "oldestSeconds"
       FROM search_pending`,
  );
  return r.rows[0]!;
}
