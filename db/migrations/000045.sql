-- Full rebuilds the projections owe: stored text was changed in place (the secret scanner's rescan of
-- stored records, cli/redact-stored.ts), which no change row tells the render worker about. Noted in
-- the transaction that changes the text, so a scan cut short still owes its rebuild; cleared by a full
-- rebuild that started after it (worker/jobs/rebuild.ts), so one that started before does not clear it.
CREATE TABLE owed_rebuilds (
  reason text PRIMARY KEY,
  since  timestamptz NOT NULL
);
