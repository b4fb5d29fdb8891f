/** What a search asks the search statement (db/queries/search/match.ts) and what it answers. */
import type { Signal } from '../../../core/schemas/fields.ts';
import type { TrustSubject } from '../../../core/trust/subject.ts';

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
  /** MD5s of the query's whole lines, as pasted and without their log prefixes (`DocumentRow.literal_line`). */
  lineKeys?: string[];
  /**
   * A symptom in plain words (database-search/ranking.ts, `isPlainWords`): in mode auto, without a pair
   * key and with every term common, it is not looked up as a substring (statement-text.ts, COMMON_TERM_SHARE).
   */
  plainWords?: boolean;
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
  signature: { hits: (string | null)[]; known: string[] };
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
  /** The row's place in its statement's order (0 first), which no later stage changes. */
  position: number;
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
  /** Exact matches: the share of the query's words its longest matched key covers; null outside the exact source. */
  exact_share?: number | null;
  /** Whether the family's error literal, normalized, equals a whole line of the query (`MatchQuery.lineKeys`); null without exact keys. */
  literal_line?: boolean | null;
  /** Ranked among keyword matches though it matched by this stronger kind (database-search/fragment-matches.ts). */
  matched_kind?: KindRank;
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
