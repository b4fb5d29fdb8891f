-- Accounts with passkeys, browser sessions, and the OAuth authorization
-- server's storage (issue 11).
--
-- An account owns exactly one pseudonymous identity (its handle): OAuth
-- connections act as that identity. Every secret (session cookie, OAuth
-- token, code, interaction id) is stored as its SHA-256 only.

CREATE TABLE accounts (
  identity_id  text PRIMARY KEY REFERENCES identities (id),
  -- The WebAuthn user handle: random, never the identity id, so an
  -- authenticator learns nothing that links it to public records.
  user_handle  text NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE passkeys (
  -- The credential id (base64url) the authenticator chose.
  id            text PRIMARY KEY,
  identity_id   text NOT NULL REFERENCES accounts (identity_id),
  public_key    bytea NOT NULL,
  counter       bigint NOT NULL DEFAULT 0,
  transports    text[] NOT NULL DEFAULT '{}',
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz
);
CREATE INDEX passkeys_identity ON passkeys (identity_id);

-- A pending WebAuthn ceremony: the challenge the browser must sign. Used once.
CREATE TABLE passkey_challenges (
  id          text PRIMARY KEY,
  purpose     text NOT NULL CHECK (purpose IN ('register', 'authenticate')),
  challenge   text NOT NULL,
  handle      text,
  user_handle text,
  expires_at  timestamptz NOT NULL
);

CREATE TABLE account_sessions (
  hash         text PRIMARY KEY,
  identity_id  text NOT NULL REFERENCES accounts (identity_id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX account_sessions_identity ON account_sessions (identity_id);

-- oidc-provider's adapter storage: one row per model instance, keyed by
-- the SHA-256 of its id (for tokens and codes the id is the secret itself).
CREATE TABLE oauth_records (
  model       text NOT NULL,
  id_hash     text NOT NULL,
  grant_id    text,
  uid_hash    text,
  payload     jsonb NOT NULL,
  expires_at  timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id_hash)
);
CREATE INDEX oauth_records_grant ON oauth_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_records_uid ON oauth_records (model, uid_hash) WHERE uid_hash IS NOT NULL;

-- What /account lists: one row per consent (an oidc-provider Grant).
CREATE TABLE oauth_connections (
  grant_id      text PRIMARY KEY,
  identity_id   text NOT NULL REFERENCES accounts (identity_id),
  client_id     text NOT NULL,
  client_name   text NOT NULL,
  scopes        text[] NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX oauth_connections_identity ON oauth_connections (identity_id, created_at DESC);
