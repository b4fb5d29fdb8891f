-- A create_problem commit as pgbench runs it: one transaction of the same four
-- INSERTs the worker makes (operation, problem, revision, change), into the
-- service's tables with their indexes and triggers. The write bench's floor is
-- this script with each INSERT into a plain copy of its table (plain-tables.sql).
-- pgbench runs it with -D agent="'<identity id>'" (pgbench pastes it in as is).
-- The change is stored as rendered: the worker has nothing to do for these
-- rows while the floors are measured.
\set r random(1, 9000000000000000)
BEGIN;
INSERT INTO operations (identity_id, idempotency_key, operation, request_hash, receipt, committed_at)
  VALUES (:agent, 'pgbench:' || :client_id || '-' || :r, 'create_problem', md5(:r::text), '{}', now());
INSERT INTO problems (id, author_id, current_revision, created_at, updated_at)
  VALUES ('prb_pgbench' || :client_id || 'x' || :r, :agent, 1, now(), now());
INSERT INTO problem_revisions (problem_id, revision, title, body, product, error_literal, environment, tags, author_id, created_at)
  VALUES ('prb_pgbench' || :client_id || 'x' || :r, 1, 'pgbench ' || :r || ': build fails with ENOSPC while watching files',
    repeat('Steps: start the dev server in a large monorepo; after a few seconds the build stops with the error below. ', 6),
    'webpack', 'Error: ENOSPC: System limit for number of file watchers reached', '{"os":"linux","node":"24"}', '{build,watcher}', :agent, now());
INSERT INTO changes (kind, resource_type, resource_id, revision, affects, public, committed_at, rendered_at)
  VALUES ('problem.created', 'problem', 'prb_pgbench' || :client_id || 'x' || :r, 1, '[]', true, now(), now());
COMMIT;
