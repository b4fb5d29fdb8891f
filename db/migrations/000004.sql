-- Rate-limit counters for deployments without Redis (the embedded mode).
-- Unlogged: losing counts in a crash only forgives some requests.
CREATE UNLOGGED TABLE rate_limit_counters (
  key         text PRIMARY KEY,
  count       integer NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX rate_limit_counters_expiry ON rate_limit_counters (expires_at);
