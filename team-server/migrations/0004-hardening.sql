-- Team server schema, version 4: nobody outside the team may connect, and
-- nobody may hold up the numbering of events.
--
-- * Only staff connect to the team's database: CONNECT is taken from PUBLIC
--   and given to appraisal_team_staff (roles are global to the cluster, and
--   any role that could connect could take locks, open sessions and listen).
-- * Events are numbered under a row lock on a table of the schema owner's,
--   taken by the SECURITY DEFINER trigger, instead of a database-wide
--   advisory lock any connected role could take with the same key and keep.
--   A member cannot lock that row except by inserting an event.
-- * The trigger waits for that lock at most 10 s (lock_timeout on the
--   function: a session cannot lift it for the function's own statements),
--   so one stalled writer makes the others fail and retry, never hang.
-- Frozen: a later change is a new file. See docs/team.md.

DO $$
BEGIN
  EXECUTE format('REVOKE CONNECT, TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO appraisal_team_staff', current_database());
END
$$;

CREATE TABLE appraisal_team.event_numbering (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row)
);
INSERT INTO appraisal_team.event_numbering DEFAULT VALUES;
REVOKE ALL ON appraisal_team.event_numbering FROM PUBLIC;

-- Numbers each new event. The row lock makes writers take numbers one
-- transaction at a time, so sequence order is commit order: a reader that
-- has seen seq N never later meets a committed event below N. It also
-- overrides any seq or server time a writer tried to set.
CREATE OR REPLACE FUNCTION appraisal_team.number_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET lock_timeout = '10s' AS $$
BEGIN
  PERFORM 1 FROM appraisal_team.event_numbering FOR UPDATE;
  NEW.seq := nextval('appraisal_team.event_seq');
  NEW.server_time := now();
  RETURN NEW;
END
$$;
