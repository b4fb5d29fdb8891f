/** The text of the search statement for one shape of query (match.ts). */
import { COUNTER_FEEDBACK_KINDS } from '../../../core/trust/rules.ts';
import { termLexemesSql, termSharesSql } from '../search-families.ts';
import { decayedConfidenceSql, trustSubjectColumnsSql } from '../trust.ts';
import { DOCUMENT_COLUMNS, filtersOn, TOTALS } from './page.ts';

/** The buckets of the pair keys' index (db/migrations/000044.sql, `ak_search_pair_bucket`). */
const PAIR_BUCKETS = 16;

/** Pair keys a substring is looked up by: a few are as selective as many, and each costs a posting list. */
const PAIR_KEYS_READ = 4;

/**
 * A share of all documents (planner statistics) past which a term is common. A symptom in plain words
 * made of common terms is a costly substring: its pair key, or with none (one word, or a word of one or
 * two letters at an end: `service`, `ci happens`) its trigrams, are held by a large share of the corpus,
 * and every holder is read, or rechecked when none contains the words in that order: at a million
 * records 300,000 for `service` (230 ms), 16 buckets of `est tim` for `request timeout` (74 ms). The cap's
 * records it does find are the first in table order, not the best. So in mode auto such a query goes to
 * the keyword level, whose champion lists name the best documents of common terms. Relative to the
 * corpus, so that 100k and 1M records answer alike.
 */
const COMMON_TERM_SHARE = 0.01;

/** What ranking reads of a candidate, carried from the index scan that found it. */
const CANDIDATE_COLUMNS = `d.id, d.type, d.family, d.title, d.snippet, d.updated_at, d.exact_keys, d.tsv, d.title_tsv, d.text_norm,
  d.worked, d.partially_worked, d.did_not_work, d.literal_key`;

/**
 * How many of the query's alias groups (the CTE `lexemes`, its `groups`) the vector `tsv` holds: 0 without
 * reading anything when the query has none.
 */
const aliasGroupsHeld = (tsv: string) => `CASE WHEN cardinality((SELECT groups FROM lexemes)) = 0 THEN 0
                        ELSE (SELECT count(*)::int FROM unnest((SELECT groups FROM lexemes)) AS g WHERE ${tsv} @@ g) END`;

/**
 * The parts of the search statement a query can use. A part it cannot (a source its mode does not read,
 * the filters when none is set) is left out of the statement's text, not only gated by a parameter: the
 * executor starts every node of a plan on each execution, gated or not, and the whole statement's
 * start-up was about 0.4 ms of every search at 100k (perf over a loop of searches: ExecutorStart 61 % of
 * a statement whose sources were all gated off). Each shape is its own named statement.
 */
export interface MatchShape {
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

/**
 * What a record whose literal is the whole query adds to its score: more than
 * every other term can add together, so such records come first in the
 * statement's order, where the page is cut, and not only within the rows
 * the second stage reorders (a line 30 newer records also hold pushed the
 * record that is that error past them).
 */
const LITERAL_EQUAL_WEIGHT = 100;

export function matchStatementText(shape: MatchShape): string {
  const on = (disputed: string) => (shape.filtered ? filtersOn(disputed) : 'true');
  const groupsHeld = (tsv: string) => (shape.aliases ? aliasGroupsHeld(tsv) : '0');
  // A source left out: no rows, the same columns.
  const none = (src: number) => `SELECT ${CANDIDATE_COLUMNS}, ${src} AS src FROM search_documents d WHERE false`;
  // Without filters, records whose literal is the whole query are read first, through their B-tree
  // (db/migrations/000042.sql), which stops at the cap: the exact keys' GIN index reads every record holding
  // the key before returning one, thousands for a common literal. A filter could skip most of the
  // literal's records one heap row at a time, so filtered searches read the GIN index alone.
  const literalFirst = shape.filtered
    ? ''
    : `
         (SELECT ${CANDIDATE_COLUMNS} FROM search_documents d
           WHERE $8::text = ANY($7::text[]) AND d.literal_key = $8::text LIMIT $31::int)
         UNION ALL`;
  const exact = !shape.exact
    ? none(1)
    : `
       SELECT e.*, 1 AS src FROM (${literalFirst}
         (SELECT ${CANDIDATE_COLUMNS} FROM search_documents d
           WHERE $8::text = ANY($7::text[]) AND d.exact_keys @> ARRAY[$8::text]${
             shape.filtered ? '' : ' AND d.literal_key IS DISTINCT FROM $8::text'
           } AND ${on('$25')} LIMIT $31::int)
         UNION ALL${
           shape.filtered
             ? ''
             : `
         (SELECT ${CANDIDATE_COLUMNS} FROM search_documents d
           WHERE cardinality($7::text[]) > 0 AND d.literal_key = ANY($7::text[])
             AND NOT ($8::text = ANY($7::text[]) AND d.exact_keys @> ARRAY[$8::text]) LIMIT $31::int)
         UNION ALL`
         }
         -- A few records per whole line of the query (its lines but the whole), before those holding any of
         -- its keys: that source answers in table order, so a line many records share (\`is the server
         -- running on host <ip> (<ip>) and accepting\`) filled its rows and kept out the record holding the
         -- query's rarer line as well.
         (SELECT x.* FROM unnest($44::text[]) AS l(k)
           CROSS JOIN LATERAL (
             SELECT ${CANDIDATE_COLUMNS} FROM search_documents d
              WHERE l.k = ANY($7::text[]) AND l.k <> $8::text AND d.exact_keys @> ARRAY[l.k]
                AND NOT ($8::text = ANY($7::text[]) AND d.exact_keys @> ARRAY[$8::text])${
                  shape.filtered ? '' : ' AND (d.literal_key IS NULL OR NOT d.literal_key = ANY($7::text[]))'
                }
                AND ${on('$25')} LIMIT greatest(4, ceil($31::int::float8 / greatest(1, cardinality($44::text[]))))::int) x
           LIMIT $31::int)
         UNION ALL
         (SELECT ${CANDIDATE_COLUMNS} FROM search_documents d
           WHERE cardinality($7::text[]) > 0 AND d.exact_keys && $7::text[]
             AND NOT ($8::text = ANY($7::text[]) AND d.exact_keys @> ARRAY[$8::text])${
               shape.filtered ? '' : ' AND (d.literal_key IS NULL OR NOT d.literal_key = ANY($7::text[]))'
             }
             AND ${on('$25')} LIMIT $31::int)) e
        LIMIT $31::int`;
  // Substrings: through the query's pair keys when it has any, checked with strpos (which the
  // trigram index cannot serve, so the planner reads the keys' index alone); else through trigrams.
  // Not read once the exact source has filled its cap with records equal to the whole query: each of
  // those contains it too and outscores by 6 any record that only contains it, and a common literal's
  // pair keys or trigrams are held by thousands of records, every one read into the index's bitmap.
  const wholeFilled = !shape.exact
    ? ''
    : `
          AND NOT EXISTS (SELECT FROM exact_hits e WHERE e.exact_keys @> ARRAY[$8::text] OFFSET $31::int - 1)`;
  // The pair keys are read bucket by bucket (db/migrations/000044.sql), stopping once the cap is full: a
  // fragment thousands of records share reads a sixteenth of its postings. Of the query's keys the four
  // rarest by the planner's statistics are looked up (in the query's order without them): the longest
  // words' keys are often a common literal's own, held by every record of it.
  const substring =
    shape.substring === 'pairs'
      ? `
       SELECT d.*, 2 AS src FROM generate_series(0, ${PAIR_BUCKETS - 1}) AS b(n)
        CROSS JOIN LATERAL (
          SELECT ${CANDIDATE_COLUMNS} FROM search_documents d
           WHERE ak_search_bucket_keys(d.pair_keys, ak_search_pair_bucket(d.id))
                   @> ak_search_bucket_keys((SELECT keys FROM pair_pick), b.n)
             AND strpos(d.text_norm, $28::text) > 0 AND ${on('$25')} LIMIT $31::int) d
        WHERE $11::int >= 1 AND $9::text IS NOT NULL AND cardinality($27::text[]) > 0
          AND NOT (SELECT common FROM common_words)${wholeFilled} LIMIT $31::int`
      : shape.substring === 'trigrams'
        ? `
       SELECT ${CANDIDATE_COLUMNS}, 2 AS src FROM search_documents d
        WHERE $11::int >= 1 AND $9::text IS NOT NULL AND cardinality($27::text[]) = 0
          AND NOT (SELECT common FROM common_words)
          AND d.text_norm LIKE $9::text AND ${on('$25')}${wholeFilled} LIMIT $31::int`
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
     exact_hits AS MATERIALIZED (${exact}),${
       shape.substring !== 'pairs'
         ? ''
         : `
     pair_pick AS MATERIALIZED (
       SELECT ARRAY(SELECT q.k FROM unnest($27::text[]) WITH ORDINALITY AS q(k, n)
                     ORDER BY coalesce(s.freqs[array_position(s.elems, q.k)], 0), q.n LIMIT ${PAIR_KEYS_READ}) AS keys
         FROM (SELECT ak_search_pair_key_elems() AS elems, ak_search_pair_key_freqs() AS freqs) s
     ),`
     }${
       shape.substring === null
         ? ''
         : `
     -- Mode auto ($30), a symptom in plain words ($45), every term common: see COMMON_TERM_SHARE.
     common_words AS MATERIALIZED (
       SELECT $30::boolean AND $45::boolean AND cardinality($10::text[]) > 0
              AND coalesce((SELECT min(s) FROM unnest(${termSharesSql('$10')}) AS s) >= ${COMMON_TERM_SHARE}, false) AS common
     ),`
     }
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
              -- Whole literal first (docs/search.md): before the page is cut, so it holds on every page.
              coalesce(d.literal_key = $8::text, false) AS literal_equal,
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
       SELECT id, type, updated_at, kind, coverage, scored_coverage, exact,
              $17::float8 * exact + $18::float8 * contains::int + $19::float8 * scored_coverage
                + $20::float8 * title_share + $21::float8 * signature + $22::float8 * prior + $26::float8 * trust
                + ${LITERAL_EQUAL_WEIGHT} * literal_equal::int AS score
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
            -- Whether an exact match is only on a fragment of the query (database-search/fragment-matches.ts): its
            -- key's share of the query's words, and whether the family's literal is a whole line of it ($44).
            ${
              shape.exact
                ? `page.exact AS exact_share, d.literal_key = ANY($44::text[]) AS literal_line`
                : 'NULL::float8 AS exact_share, NULL::boolean AS literal_line'
            },
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
         SELECT id, kind, coverage, scored_coverage, score, exact, updated_at,
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
