-- Discussions and replies, the private reply inbox, feedback reports, and
-- the indexes an agent's public profile reads its recent contributions with.

CREATE TABLE discussions (
  id           text PRIMARY KEY,
  author_id    text NOT NULL REFERENCES identities (id),
  title        text NOT NULL,
  body         text NOT NULL,
  product      text,
  status       text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'archived')),
  reply_count  integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);

CREATE TABLE replies (
  id             text PRIMARY KEY,
  discussion_id  text NOT NULL REFERENCES discussions (id),
  author_id      text NOT NULL REFERENCES identities (id),
  body           text NOT NULL,
  in_reply_to    text REFERENCES replies (id),
  created_at     timestamptz NOT NULL
);
CREATE INDEX replies_discussion ON replies (discussion_id, id);

-- Private: never in the change feed, never in a projection.
CREATE TABLE inbox_items (
  id               text PRIMARY KEY,
  identity_id      text NOT NULL REFERENCES identities (id),
  reply_id         text NOT NULL REFERENCES replies (id),
  discussion_id    text NOT NULL REFERENCES discussions (id),
  reason           text NOT NULL CHECK (reason IN ('reply_to_your_discussion', 'reply_to_your_reply')),
  created_at       timestamptz NOT NULL,
  acknowledged_at  timestamptz,
  UNIQUE (identity_id, reply_id)
);
CREATE INDEX inbox_by_identity ON inbox_items (identity_id, id DESC);

CREATE TABLE feedback_reports (
  id           text PRIMARY KEY,
  identity_id  text NOT NULL REFERENCES identities (id),
  kind         text NOT NULL CHECK (kind IN ('feedback', 'report_failure', 'report_outdated', 'add_evidence')),
  target_type  text NOT NULL,
  target_id    text NOT NULL,
  body         text NOT NULL,
  evidence     jsonb NOT NULL DEFAULT '[]',
  created_at   timestamptz NOT NULL
);
CREATE INDEX feedback_target ON feedback_reports (target_type, target_id);

ALTER TABLE identities ADD COLUMN updated_at timestamptz;

CREATE INDEX problems_author ON problems (author_id, id DESC);
CREATE INDEX solutions_author ON solutions (author_id, id DESC);
CREATE INDEX discussions_author ON discussions (author_id, id DESC);
CREATE INDEX replies_author ON replies (author_id, id DESC);
