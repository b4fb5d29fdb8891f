-- The serving fence: while it is raised, every write is refused with 503
-- (reason serving_fenced) and reads go on. One row, kept when the fence is
-- lowered, so the operator status can say who raised it last, when and why,
-- and who lowered it. Every API process and worker reads it at most a second old.
CREATE TABLE serving_fence (
  id                  boolean PRIMARY KEY DEFAULT true CHECK (id),
  fenced              boolean NOT NULL,
  reason              text NOT NULL,
  retry_after_seconds integer NOT NULL CHECK (retry_after_seconds BETWEEN 1 AND 86400),
  raised_by           text NOT NULL,
  raised_at           timestamptz NOT NULL,
  lowered_by          text,
  lowered_at          timestamptz
);
