-- Team server schema, version 3: assignments. Who a record is assigned to
-- is an append-only event like a mark: numbered by the same sequence, read
-- and appended under the same row-level security, and an assignee must be a
-- member of the author's own team (or null: nobody). The current assignee of
-- a record is its assignment event with the highest `seq`.
-- Frozen: a later change is a new file. See docs/team.md.

CREATE TABLE appraisal_team.assignment_events (
  id uuid PRIMARY KEY,
  partner_id text NOT NULL CHECK (length(partner_id) BETWEEN 1 AND 200),
  resource text NOT NULL CHECK (resource IN ('inspections', 'guarantees')),
  record_idx bigint NOT NULL CHECK (record_idx >= 0),
  assignee name,
  author name NOT NULL DEFAULT session_user,
  client_time timestamptz NOT NULL,
  based_on_seq bigint CHECK (based_on_seq >= 0),
  restores uuid,
  seq bigint NOT NULL UNIQUE,
  server_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assignment_events_partner_seq ON appraisal_team.assignment_events (partner_id, seq);

-- True when `who` is a member of the session role's own team.
CREATE FUNCTION appraisal_team.is_teammate(who name) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT EXISTS (
    SELECT 1
    FROM appraisal_team.members me
    JOIN appraisal_team.members o ON o.team = me.team
    WHERE me.role_name = session_user AND o.role_name = who
  )
$$;

CREATE TRIGGER assignment_events_number BEFORE INSERT ON appraisal_team.assignment_events
  FOR EACH ROW EXECUTE FUNCTION appraisal_team.number_event();
CREATE TRIGGER assignment_events_notify AFTER INSERT ON appraisal_team.assignment_events
  FOR EACH STATEMENT EXECUTE FUNCTION appraisal_team.notify_events();

REVOKE ALL ON appraisal_team.assignment_events FROM PUBLIC;
REVOKE ALL ON FUNCTION appraisal_team.is_teammate(name) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION appraisal_team.is_teammate(name) TO appraisal_team_staff;
GRANT SELECT ON appraisal_team.assignment_events TO appraisal_team_staff;
GRANT INSERT (id, partner_id, resource, record_idx, assignee, author, client_time, based_on_seq, restores)
  ON appraisal_team.assignment_events TO appraisal_team_staff;

ALTER TABLE appraisal_team.assignment_events ENABLE ROW LEVEL SECURITY;
CREATE POLICY staff_read ON appraisal_team.assignment_events FOR SELECT TO appraisal_team_staff
  USING (appraisal_team.may_see(partner_id));
CREATE POLICY staff_append ON appraisal_team.assignment_events FOR INSERT TO appraisal_team_staff
  WITH CHECK (
    author = session_user
    AND appraisal_team.may_see(partner_id)
    AND (assignee IS NULL OR appraisal_team.is_teammate(assignee))
  );
