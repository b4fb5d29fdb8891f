/**
 * Search: normalizes the query, runs it at the modes asked for and shapes
 * the compact candidates of docs/api.md (Reads). Used by both search
 * endpoints, and meant for the tool protocol too.
 *
 * - `exact`: the normalized query, one of its lines, or what is left of a
 *   line without up to 8 words at either end (a pasted log prefix, trailing
 *   detail) equals a record's normalized error literal or title, or one of
 *   their lines or of the first 40 lines of its body.
 * - `substring`: the normalized query occurs in the record's normalized text.
 * - `keywords`: the record holds at least half of the query's English
 *   full-text terms (two of two or more), of its first 16.
 * A mode admits its kind and every stronger one; each candidate reports the
 * strongest kind it satisfies. `auto` runs exact, then substring, then
 * keywords, and keeps the first that finds anything (a query that meets
 * records only on a fragment goes on to keywords too).
 */
import type { Queryable } from '../db/pool.ts';
import {
  findMatchingDocuments,
  KIND_RANK,
  listNewestDocuments,
  type DocumentPage,
  type DocumentRow,
  type DocumentType,
  type KindRank,
  type MatchQuery,
  type SearchFilters,
} from '../db/queries/search.ts';
import { recordLinks, type ResourceLinks } from '../core/types.ts';
import {
  DEFAULT_SEARCH_LIMIT,
  MATCH_KINDS,
  type MatchKind,
  type SearchMode,
  type SearchParams,
} from '../core/schemas/search-params.ts';
import { hasNextPage } from '../core/schemas/read-params.ts';
import { loadCandidateTrust, type CandidateTrust } from './candidate-trust.ts';
import {
  allTermsQuery,
  anyTermQuery,
  lastResortMinimumTerms,
  looserPrefilterQuery,
  minimumTerms,
  nearlyAllTermsQuery,
  prefilterQuery,
  rareTerms,
  rarestPairsSize,
  relaxedMinimumTerms,
} from './keyword-query.ts';
import { redactText } from '../core/redact-secrets.ts';
import { isPasted, isPlainWords, keyWords, signatureOf, signatureReadsTitle, weightsFor } from './ranking.ts';
import { failureLinesFirst, withoutFrameLines, withoutLogPrefixes } from './log-prefix.ts';
import { rerankByLiteral, rerankByTermWeight } from './rerank.ts';
import { matchesOnlyAFragment, withFragmentMatches } from './fragment-matches.ts';
import { keyHash, normalizeLiteral, queryKeys } from './normalize.ts';
import { pairKeys } from './substring-query.ts';
import { queryTerms } from './query-terms.ts';
import { withAliases, withoutNarrative } from './term-aliases.ts';

export interface SearchCandidate {
  type: DocumentType;
  id: string;
  title: string;
  snippet: string;
  product: string | null;
  status: string;
  match: { kind: MatchKind; coverage: number };
  signals: { worked: number; partially_worked: number; did_not_work: number };
  /** docs/trust.md: a solution's confidence, a problem's disputed state; null for discussions. */
  trust: CandidateTrust;
  links: ResourceLinks;
}

export interface SearchResult {
  items: SearchCandidate[];
  page: number;
  limit: number;
  has_more: boolean;
  /** The mode requested (docs/api.md); each candidate's `match.kind` says what it matched by. */
  mode: SearchMode;
  /**
   * `total` counts the matches read; each candidate source stops at SEARCH_CANDIDATE_CAP rows and an
   * empty query at NEWEST_COUNT_CAP, and `total_exact` is false when one did: `total` is then a lower bound.
   */
  coverage: { total: number; total_exact: boolean; by_type: Record<DocumentType, number>; modes_tried: MatchKind[] };
}

/**
 * The loosest kind each mode admits. A level admits its kind and every
 * stronger one, and ranks them together: `auto` ranks exact and substring
 * matches against each other (a record containing the whole query can beat
 * one matching a fragment exactly), and looks for keywords when neither
 * finds anything (`fallBack`, in the same statement), or when a symptom in
 * plain words met records only on a fragment of it (a second statement).
 */
const LEVEL_OF: Record<SearchMode, KindRank> = {
  auto: KIND_RANK.substring,
  exact: KIND_RANK.exact,
  substring: KIND_RANK.substring,
  keywords: KIND_RANK.keywords,
};

/**
 * The first-stage rows the second stage (rerank.ts) reorders: the same rows
 * for every page, so that the pages of one search are cuts of one order
 * (a window that grew with the page moved a row from below page 1's window
 * to the top of page 2's, repeating page 1's last item and never showing
 * it). The default page and 20 rows below it, so a record the second stage
 * moves up can come from below that page's end; rows past the window keep
 * the first stage's order.
 */
const RERANK_ROWS = DEFAULT_SEARCH_LIMIT + 20;

/** Whether a row is one page 1 reads (each statement's first RERANK_ROWS): what every page's decisions and ranking use. */
const inWindow = (row: { position: number }) => row.position < RERANK_ROWS;

/**
 * Rows read per candidate source before ranking (docs/search.md, Bounds):
 * keyword sources need the wider net (a symptom's words are common, and
 * the rarer ones decide), exact and substring sources the narrower one (their
 * matches score alike, and the whole query's keys are read first).
 */
export const SEARCH_CANDIDATE_CAP = 200;
export const STRICT_CANDIDATE_CAP = 50;

/**
 * Champion lists (docs/search.md, Champion lists): past this many documents changed since the lists were
 * last compacted, a search does not read the lists (it would read each of those documents); the worker
 * compacts long before (CHAMPION_COMPACT_AT, db/queries/search.ts).
 */
export const CHAMPION_RECENT_CAP = 1000;

/**
 * Candidates kept of those the champion lists name, best known first (most terms held, then their
 * weights): they come ranked, where the GIN sources' 200 rows come in table order.
 */
export const CHAMPION_CANDIDATE_CAP = 30;

/**
 * Rows read from the top of each term's list: fewer per term as a query has more, about 400 in all (at least
 * 50 a term). The candidates are the 30 of them known to hold the most terms: a document holding several
 * of a query's common terms with weight is near the top of each of their lists.
 */
export function championRead(termCount: number): number {
  return Math.min(500, Math.max(50, Math.floor(400 / Math.max(1, termCount))));
}

/**
 * Coverage and keyword matching count the first 16 distinct terms: a symptom
 * has fewer, and a long pasted literal that got this far has its message
 * first and its details after; every term beyond costs a check per candidate.
 */
const MAX_TERMS = 16;

/** Terms a paste's lines other than its stack frames must give for the frames' terms to be left out. */
const MIN_MESSAGE_TERMS = 2;

/** Trigram indexes need three characters; a shorter substring would scan every document. */
const MIN_SUBSTRING_CHARS = 3;

/** `%text%` for LIKE, with its wildcards (and the escape character) taken literally. */
export function likePattern(normalized: string): string | null {
  if ([...normalized].length < MIN_SUBSTRING_CHARS) return null;
  return `%${normalized.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * The full-text terms a search matches by, of the query's message (normalized, without log prefixes): a
 * term an agent spells one way and a record another (`postgres`, `PostgreSQL`) matches either; a symptom
 * in words is matched by what it tells of the failure, not by how it was noticed; a pasted trace's terms
 * are read from its failing lines first, since its first lines may be the shell's, and not from its stack
 * frames when its other lines give two or more: a frame names the paster's code and the runtime's internals
 * (`at Timeout._onTimeout`, `File "util.js", line 1016`), which the record of the same error seldom holds,
 * and a keyword match needs half of the terms.
 */
export async function searchTerms(
  db: Queryable,
  message: string,
  options: { prepared?: boolean } = {},
): Promise<string[]> {
  if (!isPasted(message))
    return withAliases(withoutNarrative(await queryTerms(db, message, MAX_TERMS, options)), { symptom: true });
  const withoutFrames = withoutFrameLines(message);
  if (withoutFrames !== message) {
    const read = await queryTerms(db, failureLinesFirst(withoutFrames), MAX_TERMS, options);
    if (read.length >= MIN_MESSAGE_TERMS) return withAliases(read);
  }
  return withAliases(await queryTerms(db, failureLinesFirst(message), MAX_TERMS, options));
}

function toCandidate(row: DocumentRow, trust: Map<string, CandidateTrust>): SearchCandidate {
  return {
    type: row.type,
    id: row.id,
    title: row.title,
    snippet: row.snippet,
    product: row.product,
    status: row.status,
    match: { kind: MATCH_KINDS[row.kind], coverage: Math.round(row.coverage * 1000) / 1000 },
    signals: { worked: row.worked, partially_worked: row.partially_worked, did_not_work: row.did_not_work },
    trust: trust.get(row.id) ?? null,
    links: recordLinks({ type: row.type, id: row.id }),
  };
}

/**
 * `now` is the clock candidates' confidence decays by (tests inject it).
 * `prepared`: its statements run named, planned once per connection
 * (db/pool.ts, `queryPrepared`); the API's searches ask for it.
 */
export async function runSearch(
  db: Queryable,
  params: SearchParams,
  now = new Date(),
  options: { prepared?: boolean } = {},
): Promise<SearchResult> {
  const filters: SearchFilters = {
    type: params.type,
    product: params.product,
    status: params.status,
    signal: params.signal,
    disputed: params.disputed,
  };
  const offset = (params.page - 1) * params.limit;
  // Stored text had its secrets replaced at write time; a pasted query gets the same, so the two meet.
  const raw = redactText(params.q).value;
  const normalized = normalizeLiteral(raw);
  let found: DocumentPage;
  let newestHasMore: boolean | null = null;
  const tried: MatchKind[] = [];
  if (normalized === '') {
    // Nothing to match (q empty, or only quotes and space): the newest records that pass the filters.
    // One row past the page tells whether another follows: the totals stop counting at NEWEST_COUNT_CAP.
    const listed = await listNewestDocuments(db, filters, offset, params.limit + 1, options);
    newestHasMore = listed.rows.length > params.limit;
    found = { ...listed, rows: listed.rows.slice(0, params.limit) };
  } else {
    // A pasted line's log prefix (timestamp, level, container, pod, host) is the pasting machine's, not the error's.
    const message = withoutLogPrefixes(normalized);
    const terms = await searchTerms(db, message, options);
    const keys = queryKeys(normalized);
    const words = Math.max(1, keyWords(message));
    // The exact source reads keys in this order, so the longest (highest-scoring) matches come first.
    const ordered = keys
      .map((key) => ({ hash: keyHash(key), weight: Math.min(1, keyWords(key) / words) }))
      .sort((a, b) => b.weight - a.weight);
    const level = LEVEL_OF[params.mode];
    const plainWords = isPlainWords(message);
    const query: MatchQuery = {
      level,
      fallBack: params.mode === 'auto',
      keys: ordered.map((k) => k.hash),
      lineKeys: [...new Set([...normalized.split('\n'), ...message.split('\n')])].map(keyHash),
      plainWords,
      keyWeights: ordered.map((k) => k.weight),
      wholeKey: keyHash(message),
      pattern: likePattern(message),
      needle: message,
      pairs: pairKeys(message),
      terms,
      allTerms: allTermsQuery(terms),
      prefilter: looserPrefilterQuery(terms),
      // Pasted text only (keyword-query.ts, \`rarestPairsSize\`): a literal's first terms are its commonest words.
      // A symptom keeps its words' order: pairing its rarest reads more of its matches once the cap is hit,
      // and the second stage does not yet rank those better (the evaluation lost a place on one symptom).
      prefilterRarest: isPasted(message) && looserPrefilterQuery(terms) !== null ? rarestPairsSize(terms.length) : null,
      minTerms: minimumTerms(terms.length),
      nearlyAll: nearlyAllTermsQuery(terms),
      signature: signatureOf(raw),
      signatureTitle: signatureReadsTitle(message),
      weights: weightsFor(message),
      candidateCap: SEARCH_CANDIDATE_CAP,
      strictCap: STRICT_CANDIDATE_CAP,
      // The lists hold the best documents of a term over the whole corpus; a filter could leave none of them.
      champions: Object.values(filters).every((value) => value === undefined)
        ? { recentCap: CHAMPION_RECENT_CAP, read: championRead(terms.length), cap: CHAMPION_CANDIDATE_CAP }
        : undefined,
      filters,
      // The statement answers the whole window from the first row; the page is cut from it after re-ranking.
      offset: 0,
      limit: Math.max(offset + params.limit, RERANK_ROWS),
      // The page before the second stage, which keeps it in most searches (every exact and substring one).
      trust: { from: offset, to: offset + params.limit },
      // A symptom in words shares few of its words with the record it describes, and the telling ones are
      // its rarer ones (`redis` and `refused`, not `server` and `error`): its keyword matches are ranked by
      // the idf-weighted share of its terms they hold, two of its terms make a match, and the champion
      // lists name the documents with the largest weighted sum, each credited with every term it holds.
      // A pasted text's keyword matches keep the plain share (the evaluation lost machine forms by weighting).
      ...(isPasted(message)
        ? {}
        : { weightedCoverage: true, twoTermsMatch: true, championsByWeight: true, championsHeld: true }),
    };
    const symptom = !isPasted(message);
    const looser = () => {
      // What the stricter level just failed to find, the looser one need not look for again.
      query.level = KIND_RANK.keywords;
      query.fallBack = false;
      query.keys = [];
      query.keyWeights = [];
      query.pattern = null;
      query.pairs = [];
    };
    // In mode auto a pasted literal is most often found exactly or as a substring: its statement leaves the
    // keyword level out (a plan without it starts faster), and when it finds neither, the keyword level is
    // asked for by a second statement, which answers what the first one's own fallback would have: with no
    // exact or substring match (under the same filters) no keyword candidate holds a key of the query, and
    // the substring level is not looked at again.
    const deferred = params.mode === 'auto' && !symptom;
    found = await findMatchingDocuments(db, deferred ? { ...query, deferFallBack: true } : query, options);
    if (deferred && found.fellBack) {
      looser();
      found = { ...(await findMatchingDocuments(db, query, options)), fellBack: true };
    }
    let keywordsTried = found.fellBack;
    if (found.fellBack) looser();
    // Pasted text met only on a fragment of a line (a shared traceback line, a message cut before the words
    // that tell two errors apart): the record holding most of its terms may be no exact candidate at all, so
    // its keyword matches are read too and the fragment's records ranked among them (fragment-matches.ts).
    let merged = false;
    if (
      params.mode === 'auto' &&
      !found.fellBack &&
      found.total > 0 &&
      !plainWords &&
      found.rows.filter(inWindow).every(matchesOnlyAFragment)
    ) {
      const fragments = found;
      looser();
      keywordsTried = true;
      const keywords = await findMatchingDocuments(db, query, options);
      if (keywords.total > 0) {
        // Ranked among the keyword matches: the fragment rows page 1 reads; those past them follow.
        const ranked = withFragmentMatches(
          keywords,
          { ...fragments, rows: fragments.rows.filter(inWindow) },
          query.weights,
        );
        const ids = new Set(ranked.rows.map((row) => row.id));
        found = {
          ...ranked,
          rows: [...ranked.rows, ...fragments.rows.filter((row) => !inWindow(row) && !ids.has(row.id))],
        };
        merged = true;
      }
    }
    // A symptom in words that met records only on a fragment of it (`exited with code 137` of `blockchain
    // explorer container exited with code 137 periodically`) is a bag of words: its keyword matches are
    // ranked too, and the fragment's records among them if they hold enough of its terms.
    if (
      params.mode === 'auto' &&
      !found.fellBack &&
      found.total > 0 &&
      plainWords &&
      found.rows.filter(inWindow).every((row) => row.coverage < 1)
    ) {
      looser();
      keywordsTried = true;
      const keywords = await findMatchingDocuments(db, query, options);
      if (keywords.total > 0) found = keywords;
    }
    // A symptom's words beyond the record's own (`kubectl tries localhost 8080 instead of my cluster, missing
    // kubeconfig` against the record holding kubectl and kubeconfig) can leave fewer keyword matches than a
    // page: then records holding a third of its terms are read too, and term weights rank them. When that
    // (or, for pasted text, the keyword level itself) found nothing at all, records holding two of its
    // terms are: a pasted trace whose first terms are its shell's and its paths', or a symptom in other
    // words, still meets the record sharing its rarest terms.
    if (
      !merged &&
      found.total < params.limit &&
      found.rows.filter(inWindow).every((row) => row.kind === KIND_RANK.keywords) &&
      (params.mode === 'auto' || params.mode === 'keywords')
    ) {
      const last = lastResortMinimumTerms(terms.length);
      let held = query.minTerms;
      for (const minTerms of symptom ? [relaxedMinimumTerms(terms.length), last] : [last]) {
        if (minTerms >= held || found.total >= params.limit || (minTerms === last && found.total > 0)) continue;
        held = minTerms;
        keywordsTried = true;
        const relaxed = await findMatchingDocuments(
          db,
          {
            ...query,
            level: KIND_RANK.keywords,
            fallBack: false,
            minTerms,
            prefilter: prefilterQuery(terms, minTerms),
            prefilterRarest: rarestPairsSize(terms.length, minTerms),
          },
          options,
        );
        if (relaxed.total > found.total) found = relaxed;
      }
      // Not even two terms in any record: the records holding one of its rare terms, the rarest first (second
      // stage). A common word alone is no match (`logs error` answers nothing, as before).
      const rare = found.total === 0 && terms.length >= 2 ? rareTerms(terms, found.termShares) : [];
      if (rare.length > 0) {
        keywordsTried = true;
        found = await findMatchingDocuments(
          db,
          {
            ...query,
            level: KIND_RANK.keywords,
            fallBack: false,
            minTerms: 1,
            prefilter: anyTermQuery(rare),
            prefilterRarest: null,
          },
          options,
        );
      }
    }
    tried.push(
      ...MATCH_KINDS.slice(params.mode === 'auto' ? 0 : level, keywordsTried ? KIND_RANK.keywords + 1 : level + 1),
    );
    // The rows page 1 reads, with their own statistics: each statement's first RERANK_ROWS (several
    // statements' rows may be merged); the rows past them keep their order, after them.
    const window = found.rows.filter(inWindow);
    const below = found.rows.filter((row) => !inWindow(row));
    const literalEquals = new Set(window.flatMap((row) => (row.literal_equal ? [row.id] : [])));
    const counts = new Map(
      window.flatMap((row) =>
        row.in_text === null || row.in_title === null
          ? []
          : [[row.id, { inText: row.in_text, inTitle: row.in_title, length: row.length ?? 0 }] as const],
      ),
    );
    const weighted = rerankByTermWeight(window, terms.length, counts, found.termShares, query.weights);
    found = {
      ...found,
      rows: [...rerankByLiteral(weighted, literalEquals), ...below]
        .slice(offset, offset + params.limit)
        .map(({ matched_kind, ...row }) => (matched_kind === undefined ? row : { ...row, kind: matched_kind })),
    };
  }
  const trust = await loadCandidateTrust(db, found.rows, now, options, found.subjects);
  return {
    items: found.rows.map((row) => toCandidate(row, trust)),
    page: params.page,
    limit: params.limit,
    has_more: hasNextPage(newestHasMore ?? offset + found.rows.length < found.total, params.page),
    mode: params.mode,
    coverage: { total: found.total, total_exact: found.totalExact, by_type: found.byType, modes_tried: tried },
  };
}
