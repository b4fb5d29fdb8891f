-- The floor's tables: the columns and indexes of the four tables a create_problem commit writes
-- (operations, problems, problem_revisions, changes), and nothing of the service's own: no
-- triggers, no foreign keys, no defaults or generated columns calling its functions. What the
-- machine's PostgreSQL does with the same four INSERTs when no code of ours runs.
DROP TABLE IF EXISTS plain_operations, plain_problems, plain_problem_revisions, plain_changes;
CREATE TABLE plain_operations (LIKE operations INCLUDING DEFAULTS INCLUDING INDEXES);
CREATE TABLE plain_problems (LIKE problems INCLUDING DEFAULTS INCLUDING INDEXES);
CREATE TABLE plain_problem_revisions (LIKE problem_revisions INCLUDING DEFAULTS INCLUDING INDEXES);
CREATE TABLE plain_changes (LIKE changes INCLUDING DEFAULTS INCLUDING INDEXES);
-- The change log's cursor comes from a function of ours (ak_next_change_cursor); here, a plain identity.
ALTER TABLE plain_changes ALTER COLUMN cursor DROP DEFAULT, ALTER COLUMN cursor ADD GENERATED ALWAYS AS IDENTITY;
