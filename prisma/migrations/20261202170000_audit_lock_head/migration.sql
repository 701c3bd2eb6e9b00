-- The audit log's append lock and the chain's head in one round trip (lib/audit/log.ts,
-- writeEntries): a run's final write made them two statements, each a round trip to the server.
-- VOLATILE plpgsql: under READ COMMITTED each statement in it takes a new snapshot, so the head
-- is read after the lock is granted and sees the entry its previous holder committed (one SQL
-- statement doing both would read with a snapshot taken before the wait).
CREATE FUNCTION audit_log_lock_head(lock_key BIGINT)
RETURNS TABLE (now TIMESTAMPTZ, seq BIGINT, hash TEXT, at TIMESTAMPTZ)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(lock_key);
  RETURN QUERY
    SELECT clock_timestamp(), l.seq, l.hash, l.at
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (SELECT a.seq, a.hash, a.at FROM audit_log a ORDER BY a.seq DESC LIMIT 1) AS l ON true;
END $$;
