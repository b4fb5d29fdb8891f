/**
 * Running the search statement: which parts a query uses (its shape), the named statement of each
 * shape, and the champion lists' shortcut. The statement's text is built in statement-text.ts.
 */
import { createHash } from 'node:crypto';
import { queryPrepared, type Queryable } from '../../pool.ts';
import { filterParams, toDocumentPage, type PageRow } from './page.ts';
import { type MatchShape, matchStatementText } from './statement-text.ts';
import { KIND_RANK, type DocumentPage, type MatchQuery } from './types.ts';

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
    q.lineKeys ?? [],
    q.plainWords ?? false,
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
