-- Search: one document per problem, solution and discussion, kept current by
-- triggers, with three indexes for the three kinds of match:
--   exact      exact_keys (GIN): MD5s of the normalized literal, title and lines
--   substring  text_norm (GIN, pg_trgm): LIKE '%query%' over the normalized text
--   keywords   tsv (GIN): English full text over the normalized text
-- The triggers refresh documents family by family (a problem with its
-- solutions, or one discussion) under a lock, so concurrent commits cannot
-- lose each other's changes (see ak_search_lock).

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE search_documents (
  id                text PRIMARY KEY,
  type              text NOT NULL CHECK (type IN ('problem', 'solution', 'discussion')),
  -- The problem of a problem or solution; a discussion is its own family.
  family            text NOT NULL,
  title             text NOT NULL,
  snippet           text NOT NULL,
  product           text,
  status            text NOT NULL,
  -- Normalized title, literal, body (and product, tags): what substring and
  -- keyword matches look in.
  text_norm         text NOT NULL,
  exact_keys        text[] NOT NULL,
  tsv               tsvector NOT NULL,
  -- Outcome signals, each identity counted once per solution (its latest
  -- report); a problem carries the sums over its solutions.
  worked            integer NOT NULL DEFAULT 0,
  partially_worked  integer NOT NULL DEFAULT 0,
  did_not_work      integer NOT NULL DEFAULT 0,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);
CREATE INDEX search_documents_exact ON search_documents USING gin (exact_keys);
CREATE INDEX search_documents_trgm ON search_documents USING gin (text_norm gin_trgm_ops);
CREATE INDEX search_documents_tsv ON search_documents USING gin (tsv);
CREATE INDEX search_documents_family ON search_documents (family);
-- An empty query lists the newest documents and counts them by type: the
-- filters' columns ride along, so the count is an index-only scan.
CREATE INDEX search_documents_newest ON search_documents (created_at DESC, id DESC)
  INCLUDE (type, status, product, worked, partially_worked, did_not_work);

-- Generated from core/search/normalize-rules.ts by `npm run search:normalize-sql`;
-- test/search/normalize-sql.test.ts fails if the two differ.
CREATE FUNCTION ak_search_normalize(input text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
DECLARE
  s text := translate(input, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz');
BEGIN
  -- control characters
  s := regexp_replace(s, '[\u0001-\u0008\u000e-\u001f\u007f]', ' ', 'g');
  -- quotes
  s := regexp_replace(s, '[''"\u0060\u00b4\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u2032\u2033]', '', 'g');
  -- horizontal space
  s := regexp_replace(s, '[ \t\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+', ' ', 'g');
  -- line endings
  s := regexp_replace(s, '\r\n?', E'\n', 'g');
  -- urls
  s := regexp_replace(s, '[a-z][a-z0-9+.-]*://[^ \t\n<>]*', '<url>', 'g');
  -- windows program files
  s := regexp_replace(s, '[a-z]:[\\/]program files(?: \(x86\))?', 'c:/programfiles', 'g');
  -- windows paths
  s := regexp_replace(s, '(?<![a-z0-9_])[a-z]:[\\/](?:[^\\/ \t\n<>:|?*,;()\[\]]+[\\/]?)*(?::[0-9]+)*', '<path>', 'g');
  -- absolute and dot-relative paths, with :line:column
  s := regexp_replace(s, '(?<![a-z0-9_.~/\\<-])(?:~|\.\.?)?(?:/[a-z0-9_.@+%~$-]+)+/?(?::[0-9]+)*', '<path>', 'g');
  -- relative paths to a file
  s := regexp_replace(s, '(?<![a-z0-9_.~/\\<-])[a-z0-9_.@+-]+(?:/[a-z0-9_.@+-]+)+\.[a-z][a-z0-9]{0,5}(?::[0-9]+)*', '<path>', 'g');
  -- file:line references
  s := regexp_replace(s, '(?<![a-z0-9_.~/\\<-])[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.[a-z][a-z0-9]{0,5}:[0-9]+(?::[0-9]+)?', '<path>', 'g');
  -- uuids
  s := regexp_replace(s, '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', '<uuid>', 'g');
  -- dates and timestamps (ISO, or with slashes as nginx and syslog write them)
  s := regexp_replace(s, '[0-9]{4}(?:-[0-9]{2}-[0-9]{2}(?:[t ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]+)?)?(?:z|[+-][0-9]{2}:?[0-9]{2})?)?|/[0-9]{2}/[0-9]{2})', '<time>', 'g');
  -- clock times
  s := regexp_replace(s, '(?<![0-9:])[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]+)?', '<time>', 'g');
  -- ipv4 addresses
  s := regexp_replace(s, '(?<![0-9.])[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![0-9])', '<ip>', 'g');
  -- ipv6 addresses, loopback and localhost
  s := regexp_replace(s, '\[[0-9a-f:.]*:[0-9a-f:.]*\]|(?<![a-z0-9_:])::(?:ffff:<ip>|1)(?![0-9a-f])|(?<![a-z0-9_:])::(?=:[0-9])|(?<![a-z0-9_.-])localhost(?![a-z0-9_-])', '<ip>', 'g');
  -- host names with their address
  s := regexp_replace(s, '(?<![a-z0-9.<-])[a-z0-9][a-z0-9.-]*(?= \(<ip>\))', '<ip>', 'g');
  -- hex numbers and ids
  s := regexp_replace(s, '(?<![a-z0-9_])0x[0-9a-f]+|(?<![a-z0-9_])(?=[a-f]*[0-9])(?=[0-9]*[a-f])[0-9a-f]{7,}(?![a-z0-9_])', '<hex>', 'g');
  -- versions
  s := regexp_replace(s, '(?<![0-9.])[0-9]+(?:\.[0-9]+)+(?:-(?:alpha|beta|rc|pre|dev|canary|next|snapshot)(?:\.?[0-9]+)*)?(?![0-9])', '<ver>', 'g');
  -- numbered lines, ports, processes and threads
  s := regexp_replace(s, '(?<![a-z0-9_])(line|port|pid|process|thread|tid|col|column|position|offset|attempt|worker)([ #:=]{1,2})[0-9]+', '\1\2<n>', 'g');
  -- numbers after a colon (ports, lines) and long numbers
  s := regexp_replace(s, '(?<=:)[0-9]+|(?<![a-z0-9_])[0-9]{4,}(?![a-z0-9_])', '<n>', 'g');
  -- java thread names
  s := regexp_replace(s, '(?<=exception in thread )[^ \n]+', '<thread>', 'g');
  -- nginx connection numbers
  s := regexp_replace(s, '(?<![a-z0-9_])\*[0-9]+', '*<n>', 'g');
  -- durations and sizes
  s := regexp_replace(s, '(?<![a-z0-9_.])[0-9]+(?:\.[0-9]+)?(ms|s|sec|secs|seconds|m|min|mins|minutes|h|hr|hours|kb|mb|gb|kib|mib|gib|b|bytes)(?![a-z0-9_])', '<n>\1', 'g');
  -- space around line breaks
  s := regexp_replace(s, ' *\n[ \n]*', E'\n', 'g');
  -- leading severity words
  s := regexp_replace(s, '(^|\n)(?:error|fatal|warning|warn|critical|severe|panic): *', '\1', 'g');
  -- leading and trailing space
  s := regexp_replace(s, '^[ \n]+|[ \n]+$', '', 'g');
  RETURN s;
END
$fn$;

CREATE FUNCTION ak_search_is_key_line(line text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
  SELECT length(line) >= 12
     AND (SELECT count(m[1]) FROM regexp_matches(line, '<[a-z]+>|([a-z]{2,})', 'g') AS m) >= 2
     AND line !~ '^(?:at [^\n]*|file <path>[^\n]*|traceback \(most recent call last\):|during handling of the above exception, another exception occurred:|the above exception was the direct cause of the following exception:|goroutine [^ \n]+ \[[^\]\n]*\]:?|stack backtrace:|caused by:|note: run with rust_backtrace=[^\n]*|npm err! a complete log of this run can be found in:[^\n]*)$'
$fn$;

CREATE FUNCTION ak_search_keys(normalized text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
  SELECT coalesce(array_agg(DISTINCT md5(k)), '{}'::text[]) FROM (
    SELECT normalized AS k WHERE normalized <> ''
    UNION ALL
    SELECT line FROM unnest(string_to_array(normalized, E'\n')) AS line WHERE ak_search_is_key_line(line)
  ) keys
$fn$;

-- A short single-line excerpt for result lists.
CREATE FUNCTION ak_search_snippet(source text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN length(t) > 200 THEN left(t, 199) || '…' ELSE t END
    FROM (SELECT btrim(regexp_replace(coalesce(source, ''), '[[:space:]]+', ' ', 'g')) AS t) x
$fn$;

-- Serializes refreshes of the same family. Each refresh recomputes a family's
-- documents from the tables; without the lock, two commits (say two outcome
-- reports on one solution) would each count from a snapshot missing the
-- other's row, and the later write would lose the earlier one's report. The
-- queries after the lock run with fresh snapshots (READ COMMITTED, volatile
-- functions), so the second refresh sees the first commit. Bulk statements
-- (seeding, backfill) lock the whole table instead of thousands of keys;
-- ordinary commits take ROW EXCLUSIVE, which they share with each other but
-- not with a bulk refresh.
CREATE FUNCTION ak_search_lock(families text[]) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  IF cardinality(families) > 16 THEN
    LOCK TABLE search_documents IN SHARE ROW EXCLUSIVE MODE;
  ELSE
    LOCK TABLE search_documents IN ROW EXCLUSIVE MODE;
    -- Sorted, so two transactions locking several families cannot deadlock.
    PERFORM pg_advisory_xact_lock(8150003, key)
       FROM (SELECT DISTINCT hashtext(f) AS key FROM unnest(families) AS f ORDER BY 1) keys;
  END IF;
END
$fn$;

-- Recounts signals: each identity's latest report per solution counts once.
-- Callers hold the family lock.
CREATE FUNCTION ak_search_count_signals(families text[]) RETURNS void
LANGUAGE sql AS $fn$
  WITH latest AS (
    SELECT DISTINCT ON (o.solution_id, o.identity_id) s.problem_id, o.solution_id, o.signal
      FROM solutions s JOIN outcomes o ON o.solution_id = s.id
     WHERE s.problem_id = ANY(families)
     ORDER BY o.solution_id, o.identity_id, o.created_at DESC, o.id DESC
  ), per_solution AS (
    SELECT problem_id, solution_id AS id,
           count(*) FILTER (WHERE signal = 'worked') AS worked,
           count(*) FILTER (WHERE signal = 'partially_worked') AS partially_worked,
           count(*) FILTER (WHERE signal = 'did_not_work') AS did_not_work
      FROM latest GROUP BY problem_id, solution_id
  ), counts AS (
    SELECT id, worked, partially_worked, did_not_work FROM per_solution
    UNION ALL
    SELECT problem_id, sum(worked), sum(partially_worked), sum(did_not_work) FROM per_solution GROUP BY problem_id
  ), target AS (
    SELECT d.id, coalesce(c.worked, 0)::int AS worked, coalesce(c.partially_worked, 0)::int AS partially_worked,
           coalesce(c.did_not_work, 0)::int AS did_not_work
      FROM search_documents d LEFT JOIN counts c ON c.id = d.id
     WHERE d.family = ANY(families) AND d.type <> 'discussion'
  )
  UPDATE search_documents d
     SET worked = t.worked, partially_worked = t.partially_worked, did_not_work = t.did_not_work
    FROM target t
   WHERE d.id = t.id
     AND (d.worked, d.partially_worked, d.did_not_work) IS DISTINCT FROM (t.worked, t.partially_worked, t.did_not_work)
$fn$;

-- Rebuilds the documents of problem families from their current revisions:
-- the problem and every solution, or only `only_solutions` when given. A
-- solution carries its problem's title, literal and product, so it is found
-- by them as well as by its own text.
CREATE FUNCTION ak_search_refresh_families(families text[], only_solutions text[] DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM ak_search_lock(families);

  INSERT INTO search_documents AS d
    (id, type, family, title, snippet, product, status, text_norm, exact_keys, tsv, created_at, updated_at)
  SELECT doc.id, doc.type, doc.family, doc.title, doc.snippet, doc.product, doc.status, doc.text_norm,
         ARRAY(SELECT DISTINCT unnest(ak_search_keys(doc.title_n) || ak_search_keys(doc.literal_n)
               || ak_search_keys(array_to_string((string_to_array(doc.body_n, E'\n'))[1:40], E'\n')))),
         to_tsvector('english'::regconfig, doc.text_norm), doc.created_at, doc.updated_at
    FROM (
      SELECT part.*, concat_ws(E'\n', part.title_n, nullif(part.literal_n, ''), part.body_n, part.extra_n) AS text_norm
        FROM (
          WITH problem AS (
            SELECT p.id, p.status, p.created_at, p.updated_at, r.title, r.body, r.product, r.error_literal, r.tags,
                   ak_search_normalize(r.title) AS title_n,
                   ak_search_normalize(coalesce(r.error_literal, '')) AS literal_n
              FROM problems p JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
             WHERE p.id = ANY(families)
          )
          SELECT p.id, 'problem' AS type, p.id AS family, p.title,
                 ak_search_snippet(coalesce(nullif(btrim(p.error_literal), ''), p.body)) AS snippet,
                 p.product, p.status, p.title_n, p.literal_n,
                 ak_search_normalize(left(p.body, 8000)) AS body_n,
                 ak_search_normalize(concat_ws(' ', p.product, array_to_string(p.tags, ' '))) AS extra_n,
                 p.created_at, p.updated_at
            FROM problem p WHERE only_solutions IS NULL
          UNION ALL
          SELECT s.id, 'solution', p.id, p.title, ak_search_snippet(sr.body), p.product, s.status, p.title_n, p.literal_n,
                 ak_search_normalize(concat_ws(E'\n', left(sr.body, 8000), sr.applicability, sr.limitations)),
                 ak_search_normalize(p.product), s.created_at, s.updated_at
            FROM problem p
            JOIN solutions s ON s.problem_id = p.id
            JOIN solution_revisions sr ON sr.solution_id = s.id AND sr.revision = s.current_revision
           WHERE only_solutions IS NULL OR s.id = ANY(only_solutions)
        ) part
    ) doc
  ON CONFLICT (id) DO UPDATE SET
    type = EXCLUDED.type, family = EXCLUDED.family, title = EXCLUDED.title, snippet = EXCLUDED.snippet,
    product = EXCLUDED.product, status = EXCLUDED.status, text_norm = EXCLUDED.text_norm,
    exact_keys = EXCLUDED.exact_keys, tsv = EXCLUDED.tsv, created_at = EXCLUDED.created_at,
    updated_at = EXCLUDED.updated_at;

  -- Documents whose record is gone (or left the family).
  DELETE FROM search_documents d
   WHERE d.family = ANY(families) AND d.type <> 'discussion'
     AND (only_solutions IS NULL OR d.id = ANY(only_solutions))
     AND NOT EXISTS (
       SELECT 1 FROM problems p JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
        WHERE d.type = 'problem' AND p.id = d.id)
     AND NOT EXISTS (
       SELECT 1 FROM solutions s JOIN solution_revisions r ON r.solution_id = s.id AND r.revision = s.current_revision
        WHERE d.type = 'solution' AND s.id = d.id AND s.problem_id = d.family);

  PERFORM ak_search_count_signals(families);
END
$fn$;

CREATE FUNCTION ak_search_refresh_discussions(ids text[]) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM ak_search_lock(ids);

  INSERT INTO search_documents AS d
    (id, type, family, title, snippet, product, status, text_norm, exact_keys, tsv, created_at, updated_at)
  SELECT doc.id, 'discussion', doc.id, doc.title, ak_search_snippet(doc.body), doc.product, doc.status, doc.text_norm,
         ARRAY(SELECT DISTINCT unnest(ak_search_keys(doc.title_n)
               || ak_search_keys(array_to_string((string_to_array(doc.body_n, E'\n'))[1:40], E'\n')))),
         to_tsvector('english'::regconfig, doc.text_norm), doc.created_at, doc.updated_at
    FROM (
      SELECT part.*, concat_ws(E'\n', part.title_n, part.body_n, ak_search_normalize(part.product)) AS text_norm
        FROM (
          SELECT x.id, x.title, x.body, x.product, x.status, x.created_at, x.updated_at,
                 ak_search_normalize(x.title) AS title_n, ak_search_normalize(left(x.body, 8000)) AS body_n
            FROM discussions x WHERE x.id = ANY(ids)
        ) part
    ) doc
  ON CONFLICT (id) DO UPDATE SET
    title = EXCLUDED.title, snippet = EXCLUDED.snippet, product = EXCLUDED.product, status = EXCLUDED.status,
    text_norm = EXCLUDED.text_norm, exact_keys = EXCLUDED.exact_keys, tsv = EXCLUDED.tsv,
    created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at;

  DELETE FROM search_documents d
   WHERE d.id = ANY(ids) AND d.type = 'discussion' AND NOT EXISTS (SELECT 1 FROM discussions x WHERE x.id = d.id);
END
$fn$;

-- Triggers: statement-level with transition tables (always named `changed`),
-- so a bulk statement refreshes its rows in one set-based pass. Inserts of
-- problem and solution heads need none: their first revision follows in the
-- same transaction and triggers the refresh.

CREATE FUNCTION ak_search_on_problems() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM ak_search_refresh_families(ARRAY(SELECT DISTINCT id FROM changed));
  RETURN NULL;
END
$fn$;

-- An edit inserts its revision before it moves current_revision, so only
-- revisions that are already current (a new record's first) refresh here.
CREATE FUNCTION ak_search_on_problem_revisions() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM ak_search_refresh_families(ARRAY(
    SELECT DISTINCT c.problem_id FROM changed c
      LEFT JOIN problems p ON p.id = c.problem_id
     WHERE TG_OP = 'DELETE' OR p.current_revision = c.revision));
  RETURN NULL;
END
$fn$;

CREATE FUNCTION ak_search_on_solutions() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM ak_search_refresh_families(
      ARRAY(SELECT problem_id FROM changed UNION SELECT problem_id FROM before_rows),
      ARRAY(SELECT id FROM changed));
  ELSE
    PERFORM ak_search_refresh_families(ARRAY(SELECT DISTINCT problem_id FROM changed), ARRAY(SELECT id FROM changed));
  END IF;
  RETURN NULL;
END
$fn$;

CREATE FUNCTION ak_search_on_solution_revisions() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM ak_search_refresh_families(
    ARRAY(SELECT DISTINCT s.problem_id FROM changed c JOIN solutions s ON s.id = c.solution_id),
    ARRAY(SELECT DISTINCT c.solution_id FROM changed c
            LEFT JOIN solutions s ON s.id = c.solution_id
           WHERE TG_OP = 'DELETE' OR s.current_revision = c.revision));
  RETURN NULL;
END
$fn$;

CREATE FUNCTION ak_search_on_outcomes() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  families text[] := ARRAY(SELECT DISTINCT s.problem_id FROM changed c JOIN solutions s ON s.id = c.solution_id);
BEGIN
  PERFORM ak_search_lock(families);
  PERFORM ak_search_count_signals(families);
  RETURN NULL;
END
$fn$;

-- Replies bump reply_count; only changes a document shows refresh it.
CREATE FUNCTION ak_search_on_discussions() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM ak_search_refresh_discussions(ARRAY(
      SELECT n.id FROM changed n JOIN before_rows o ON o.id = n.id
       WHERE (n.title, n.body, n.product, n.status, n.updated_at) IS DISTINCT FROM
             (o.title, o.body, o.product, o.status, o.updated_at)));
  ELSE
    PERFORM ak_search_refresh_discussions(ARRAY(SELECT id FROM changed));
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER search_problems_update AFTER UPDATE ON problems
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_problems();
CREATE TRIGGER search_problems_delete AFTER DELETE ON problems
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_problems();

CREATE TRIGGER search_problem_revisions_insert AFTER INSERT ON problem_revisions
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_problem_revisions();
CREATE TRIGGER search_problem_revisions_update AFTER UPDATE ON problem_revisions
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_problem_revisions();
CREATE TRIGGER search_problem_revisions_delete AFTER DELETE ON problem_revisions
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_problem_revisions();

CREATE TRIGGER search_solutions_update AFTER UPDATE ON solutions
  REFERENCING OLD TABLE AS before_rows NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_solutions();
CREATE TRIGGER search_solutions_delete AFTER DELETE ON solutions
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_solutions();

CREATE TRIGGER search_solution_revisions_insert AFTER INSERT ON solution_revisions
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_solution_revisions();
CREATE TRIGGER search_solution_revisions_update AFTER UPDATE ON solution_revisions
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_solution_revisions();
CREATE TRIGGER search_solution_revisions_delete AFTER DELETE ON solution_revisions
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_solution_revisions();

CREATE TRIGGER search_outcomes_insert AFTER INSERT ON outcomes
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_outcomes();
CREATE TRIGGER search_outcomes_update AFTER UPDATE ON outcomes
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_outcomes();
CREATE TRIGGER search_outcomes_delete AFTER DELETE ON outcomes
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_outcomes();

CREATE TRIGGER search_discussions_insert AFTER INSERT ON discussions
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_discussions();
CREATE TRIGGER search_discussions_update AFTER UPDATE ON discussions
  REFERENCING OLD TABLE AS before_rows NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_discussions();
CREATE TRIGGER search_discussions_delete AFTER DELETE ON discussions
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ak_search_on_discussions();

-- Records committed before this migration.
SELECT ak_search_refresh_families(ARRAY(SELECT id FROM problems));
SELECT ak_search_refresh_discussions(ARRAY(SELECT id FROM discussions));
