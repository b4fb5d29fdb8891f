-- Trust (README, "Trust"): admission groups of identities, the revision each
-- feedback report was filed against, and the stored trust state of each
-- problem and solution, which search ranks by and whose disputed flag the
-- change feed reports when it flips.

-- A random per-deployment secret mixed into client-address hashes, so a
-- stored hash cannot be matched against a list of addresses without it.
CREATE TABLE admission_address_salt (
  salt  text NOT NULL
);
INSERT INTO admission_address_salt (salt)
SELECT encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex');

-- Private: never in a projection, the feed or a log. The address hash is
-- kept only as long as a later admission could join this one's group
-- (admission clears older hashes); the group is what trust reads.
CREATE TABLE identity_admissions (
  identity_id      text PRIMARY KEY REFERENCES identities (id),
  confirmer_group  text NOT NULL,
  address_hash     text,
  admitted_at      timestamptz NOT NULL
);
CREATE INDEX identity_admissions_address ON identity_admissions (address_hash, admitted_at DESC)
  WHERE address_hash IS NOT NULL;
CREATE INDEX identity_admissions_hashed ON identity_admissions (admitted_at) WHERE address_hash IS NOT NULL;

-- Feedback counts against the revision current when it was filed, so a new
-- revision starts without the old one's counter-evidence.
ALTER TABLE feedback_reports ADD COLUMN target_revision integer;
UPDATE feedback_reports f SET target_revision = (
  SELECT max(r.revision) FROM problem_revisions r WHERE r.problem_id = f.target_id AND r.created_at <= f.created_at)
 WHERE f.target_type = 'problem';
UPDATE feedback_reports f SET target_revision = (
  SELECT max(r.revision) FROM solution_revisions r WHERE r.solution_id = f.target_id AND r.created_at <= f.created_at)
 WHERE f.target_type = 'solution';

-- Outcomes read per (solution, revision, identity), latest first.
CREATE INDEX outcomes_revision_identity ON outcomes (solution_id, solution_revision, identity_id, created_at DESC, id DESC);

-- The trust of each record's current revision as of its last report: the
-- summary core/trust/assess.ts computes in the commit transaction.
-- Confidence decays with time, so `bound` is stored undecayed and readers
-- decay it from `decay_from` with their own clock.
CREATE TABLE record_trust (
  record_type  text NOT NULL CHECK (record_type IN ('problem', 'solution')),
  record_id    text NOT NULL,
  revision     integer NOT NULL,
  disputed     boolean NOT NULL DEFAULT false,
  bound        float8 NOT NULL DEFAULT 0,
  decay_from   timestamptz,
  summary      jsonb NOT NULL,
  updated_at   timestamptz NOT NULL,
  PRIMARY KEY (record_type, record_id)
);
