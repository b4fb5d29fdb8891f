-- Identities, credentials, the knowledge records with their revisions,
-- the idempotent operation log and the ordered change log.

CREATE TABLE identities (
  id            text PRIMARY KEY,
  kind          text NOT NULL CHECK (kind IN ('guest', 'pseudonymous')),
  handle        text UNIQUE,
  display_name  text,
  bio           text,
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- Only the SHA-256 of a bearer secret is ever stored.
CREATE TABLE credentials (
  id           text PRIMARY KEY,
  identity_id  text NOT NULL REFERENCES identities (id),
  hash         text NOT NULL UNIQUE,
  scopes       text[] NOT NULL,
  epoch        integer NOT NULL CHECK (epoch >= 1),
  issued_at    timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz
);
CREATE INDEX credentials_identity ON credentials (identity_id);

CREATE TABLE problems (
  id                text PRIMARY KEY,
  author_id         text NOT NULL REFERENCES identities (id),
  current_revision  integer NOT NULL,
  status            text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'archived')),
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);

CREATE TABLE problem_revisions (
  problem_id     text NOT NULL REFERENCES problems (id),
  revision       integer NOT NULL CHECK (revision >= 1),
  title          text NOT NULL,
  body           text NOT NULL,
  product        text NOT NULL,
  error_literal  text,
  environment    jsonb NOT NULL DEFAULT '{}',
  tags           text[] NOT NULL DEFAULT '{}',
  author_id      text NOT NULL REFERENCES identities (id),
  created_at     timestamptz NOT NULL,
  PRIMARY KEY (problem_id, revision)
);

CREATE TABLE solutions (
  id                text PRIMARY KEY,
  problem_id        text NOT NULL REFERENCES problems (id),
  author_id         text NOT NULL REFERENCES identities (id),
  current_revision  integer NOT NULL,
  status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);
CREATE INDEX solutions_problem ON solutions (problem_id, id);

CREATE TABLE solution_revisions (
  solution_id    text NOT NULL REFERENCES solutions (id),
  revision       integer NOT NULL CHECK (revision >= 1),
  body           text NOT NULL,
  applicability  text,
  limitations    text,
  author_id      text NOT NULL REFERENCES identities (id),
  created_at     timestamptz NOT NULL,
  PRIMARY KEY (solution_id, revision)
);

CREATE TABLE outcomes (
  id                 text PRIMARY KEY,
  solution_id        text NOT NULL REFERENCES solutions (id),
  solution_revision  integer NOT NULL,
  identity_id        text NOT NULL REFERENCES identities (id),
  signal             text NOT NULL CHECK (signal IN ('worked', 'partially_worked', 'did_not_work')),
  note               text,
  environment        jsonb NOT NULL DEFAULT '{}',
  created_at         timestamptz NOT NULL
);
CREATE INDEX outcomes_solution ON outcomes (solution_id, created_at DESC, id DESC);

-- One row per committed write. The primary key is what makes a key commit
-- at most once, however many workers or retries race for it.
CREATE TABLE operations (
  identity_id      text NOT NULL REFERENCES identities (id),
  idempotency_key  text NOT NULL,
  operation        text NOT NULL,
  request_hash     text NOT NULL,
  receipt          jsonb NOT NULL,
  committed_at     timestamptz NOT NULL,
  PRIMARY KEY (identity_id, idempotency_key)
);

-- The ordered log of committed changes. Cursors are taken under a
-- transaction-scoped lock held until commit, so cursor order is commit order
-- and a reader never sees a later cursor before an earlier one.
CREATE TABLE changes (
  cursor         bigserial PRIMARY KEY,
  kind           text NOT NULL,
  resource_type  text NOT NULL,
  resource_id    text NOT NULL,
  revision       integer,
  -- Records whose projections this change affects, e.g. a solution's problem.
  affects        jsonb NOT NULL DEFAULT '[]',
  public         boolean NOT NULL DEFAULT true,
  committed_at   timestamptz NOT NULL,
  rendered_at    timestamptz
);
CREATE INDEX changes_unrendered ON changes (cursor) WHERE rendered_at IS NULL;
