-- The change feed's horizon counts only transactions that may write here.
--
-- The horizon (000006.sql) was the snapshot's xmin: the oldest transaction
-- running anywhere on the server. Transaction ids are server-wide, so a long
-- transaction in another database on the same server (a bulk load, a
-- migration, a report left open) held back this database's feed and sitemap
-- for as long as it ran, though it can never add a change here.
--
-- Now the horizon is the oldest of the snapshot's running transactions that
-- is not known to belong to another database, or the snapshot's xmax when
-- there is none. A transaction is dropped only when pg_stat_activity shows
-- its id on a backend of another database: a backend's database never
-- changes, and an id that has ended, or that this role may not see, is kept.
-- So the feed's prefix still never grows again: every transaction that could
-- still add a cursor below the horizon is one that was kept.
DO $migration$
DECLARE
  -- The same statement reads both, so both come from one snapshot.
  base bigint := (SELECT ak_change_feed_horizon() - pg_snapshot_xmin(pg_current_snapshot())::text::bigint * 256);
BEGIN
  EXECUTE format($f$
    CREATE OR REPLACE FUNCTION ak_change_feed_horizon() RETURNS bigint LANGUAGE sql STABLE AS $body$
      SELECT %1$s + coalesce(
        (SELECT min(x) FROM pg_snapshot_xip(s) x
          WHERE NOT EXISTS (
            SELECT 1 FROM pg_stat_activity a
             WHERE a.backend_xid = x::xid AND a.datname IS NOT NULL AND a.datname <> current_database())),
        pg_snapshot_xmax(s))::text::bigint * 256
      FROM pg_current_snapshot() s
    $body$ $f$, base);
END
$migration$;
