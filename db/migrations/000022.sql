-- Which versions of the secret scanner's rule set have scanned the stored
-- records (`npm run migrate` scans once per version; ops/redact-stored.ts).
CREATE TABLE secret_scans (
  rules_version text PRIMARY KEY,
  rows_redacted integer NOT NULL,
  scanned_at timestamptz NOT NULL DEFAULT now()
);
