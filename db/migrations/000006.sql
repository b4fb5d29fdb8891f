-- The change feed without a commit lock. Until now every commit took one
-- advisory lock from its change row to its COMMIT so that cursor order was
-- commit order: every commit, WAL flush included, ran one at a time.
--
-- Now a change's cursor is derived from its transaction id (xid8, which never
-- wraps): base + xid * 256 + the change's index within its transaction.
-- Transaction ids are handed out before the transaction commits, and every
-- transaction still running (or yet to start) has an id at or above the
-- oldest running one, the snapshot's xmin. So a reader that lists only
-- cursors below base + xmin * 256 lists a prefix of the feed that can never
-- grow again: cursors only grow, and no reader skips a change committed late.
-- The feed's visible end trails the oldest write transaction running on the
-- server (milliseconds), never more.
--
-- `base` is fixed here, above every cursor handed out so far, so the cursors
-- of older changes (from the old sequence) stay below every new one.
ALTER TABLE changes ALTER COLUMN cursor DROP DEFAULT;
DROP SEQUENCE IF EXISTS changes_cursor_seq;

DO $migration$
DECLARE
  base bigint := (SELECT coalesce(max(cursor), 0) + 1 FROM changes);
BEGIN
  -- The cursor of the next change this transaction appends.
  EXECUTE format($f$
    CREATE FUNCTION ak_next_change_cursor() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $body$
    DECLARE
      low bigint := %1$s + pg_current_xact_id()::text::bigint * 256;
      taken integer := (SELECT count(*) FROM changes WHERE cursor >= low AND cursor < low + 256);
    BEGIN
      IF taken >= 256 THEN
        RAISE EXCEPTION 'a transaction may append at most 256 changes';
      END IF;
      RETURN low + taken;
    END $body$ $f$, base);
  -- Every cursor below this was committed (or rolled back) before the
  -- current snapshot was taken; no transaction can still add one.
  EXECUTE format($f$
    CREATE FUNCTION ak_change_feed_horizon() RETURNS bigint LANGUAGE sql STABLE AS $body$
      SELECT %1$s + pg_snapshot_xmin(pg_current_snapshot())::text::bigint * 256
    $body$ $f$, base);
END
$migration$;

ALTER TABLE changes ALTER COLUMN cursor SET DEFAULT ak_next_change_cursor();
