-- Team server schema, version 5: presence. Which record each member has
-- open right now, so two people do not review the same one twice.
--
-- Ephemeral by design: one row per member (the record open now, or none),
-- no history, no sequence number, nothing pulled into a client's store. A row
-- counts only while its member's session is alive (the backend that wrote it
-- is still running: a killed app's session ends with its socket) and its
-- heartbeat is recent (a machine cut off without closing the socket stops
-- refreshing it); the reader gives the age it accepts.
--
-- Members write only through set_presence()/clear_presence() (their own
-- row, of a partner account their team is granted) and read through
-- present() or the table itself, where row-level security shows a member
-- only the rows of its own team: a member of another team sees none.
-- A change (not a heartbeat) sends NOTIFY appraisal_team_presence with an
-- empty payload, so listening clients read again at once; as with events, a
-- member of another team learns only that something changed.
-- Frozen: a later change is a new file. See docs/team.md.

CREATE TABLE appraisal_team.presence (
  role_name name PRIMARY KEY,
  partner_id text NOT NULL CHECK (length(partner_id) BETWEEN 1 AND 200),
  resource text NOT NULL CHECK (resource IN ('inspections', 'guarantees')),
  record_idx bigint NOT NULL CHECK (record_idx >= 0),
  backend_pid integer NOT NULL,
  seen_at timestamptz NOT NULL
);

-- The session's member opens a record (or refreshes its heartbeat on it).
CREATE FUNCTION appraisal_team.set_presence(partner text, res text, idx bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  before appraisal_team.presence%ROWTYPE;
BEGIN
  IF NOT appraisal_team.may_see(partner) THEN
    RAISE EXCEPTION 'presence: % may not see partner account %', session_user, partner
      USING ERRCODE = '42501';
  END IF;
  SELECT * INTO before FROM appraisal_team.presence WHERE role_name = session_user;
  INSERT INTO appraisal_team.presence AS p
    (role_name, partner_id, resource, record_idx, backend_pid, seen_at)
  VALUES (session_user, partner, res, idx, pg_backend_pid(), now())
  ON CONFLICT (role_name) DO UPDATE SET
    partner_id = excluded.partner_id, resource = excluded.resource,
    record_idx = excluded.record_idx, backend_pid = excluded.backend_pid,
    seen_at = excluded.seen_at;
  IF before.role_name IS NULL
    OR before.partner_id IS DISTINCT FROM partner
    OR before.resource IS DISTINCT FROM res
    OR before.record_idx IS DISTINCT FROM idx
    OR before.backend_pid IS DISTINCT FROM pg_backend_pid() THEN
    PERFORM pg_notify('appraisal_team_presence', '');
  END IF;
END
$$;

-- The session's member closed the record (or quits).
CREATE FUNCTION appraisal_team.clear_presence() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  DELETE FROM appraisal_team.presence WHERE role_name = session_user;
  IF FOUND THEN
    PERFORM pg_notify('appraisal_team_presence', '');
  END IF;
END
$$;

-- The other members of the session's team who have a record of `partner`
-- open now: their session alive and their heartbeat at most `max_age_ms` old.
CREATE FUNCTION appraisal_team.present(partner text, max_age_ms integer)
RETURNS TABLE (role_name name, resource text, record_idx bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT p.role_name, p.resource, p.record_idx
  FROM appraisal_team.presence p
  WHERE p.partner_id = partner
    AND p.role_name <> session_user
    AND appraisal_team.may_see(partner)
    AND appraisal_team.is_teammate(p.role_name)
    AND p.seen_at > now() - make_interval(secs => max_age_ms / 1000.0)
    AND EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = p.backend_pid)
  ORDER BY p.role_name
$$;

REVOKE ALL ON appraisal_team.presence FROM PUBLIC;
REVOKE ALL ON FUNCTION appraisal_team.set_presence(text, text, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION appraisal_team.clear_presence() FROM PUBLIC;
REVOKE ALL ON FUNCTION appraisal_team.present(text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION appraisal_team.set_presence(text, text, bigint) TO appraisal_team_staff;
GRANT EXECUTE ON FUNCTION appraisal_team.clear_presence() TO appraisal_team_staff;
GRANT EXECUTE ON FUNCTION appraisal_team.present(text, integer) TO appraisal_team_staff;
GRANT SELECT ON appraisal_team.presence TO appraisal_team_staff;

ALTER TABLE appraisal_team.presence ENABLE ROW LEVEL SECURITY;
CREATE POLICY staff_read ON appraisal_team.presence FOR SELECT TO appraisal_team_staff
  USING (appraisal_team.is_teammate(role_name) AND appraisal_team.may_see(partner_id));
