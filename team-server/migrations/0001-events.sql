-- Team server schema, version 1: teams, members, the partner accounts each
-- team may see, and the two append-only event tables under row-level security.
-- Applied by `npm run team -- migrate` in one transaction, as a role that may
-- create roles (the administrator). Frozen: a later change is a new file.
-- See docs/team.md.

-- Every staff login role is a member of this group role; policies and grants
-- name it, so adding a member is one GRANT. Roles are global to the cluster.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'appraisal_team_staff') THEN
    CREATE ROLE appraisal_team_staff NOLOGIN;
  END IF;
END
$$;

REVOKE ALL ON SCHEMA appraisal_team FROM PUBLIC;
GRANT USAGE ON SCHEMA appraisal_team TO appraisal_team_staff;
GRANT SELECT ON appraisal_team.schema_version TO appraisal_team_staff;

CREATE TABLE appraisal_team.teams (
  name text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 100)
);

-- The partner accounts (partner ids of the service) a team may see.
CREATE TABLE appraisal_team.team_partners (
  team text NOT NULL REFERENCES appraisal_team.teams (name) ON DELETE CASCADE,
  partner_id text NOT NULL CHECK (length(partner_id) BETWEEN 1 AND 200),
  PRIMARY KEY (team, partner_id)
);

-- A member is a login role in exactly one team.
CREATE TABLE appraisal_team.members (
  role_name name PRIMARY KEY,
  team text NOT NULL REFERENCES appraisal_team.teams (name) ON DELETE CASCADE,
  display_name text NOT NULL DEFAULT '' CHECK (length(display_name) <= 100)
);

-- One sequence numbers the events of both tables, so a client keeps a single
-- cursor ("everything after seq N").
CREATE SEQUENCE appraisal_team.event_seq AS bigint;

CREATE TABLE appraisal_team.review_events (
  id uuid PRIMARY KEY,
  partner_id text NOT NULL CHECK (length(partner_id) BETWEEN 1 AND 200),
  resource text NOT NULL CHECK (resource IN ('inspections', 'guarantees')),
  record_idx bigint NOT NULL CHECK (record_idx >= 0),
  mark text NOT NULL CHECK (mark IN ('reviewed', 'follow_up', 'none')),
  note text NOT NULL DEFAULT '' CHECK (length(note) <= 2000),
  author name NOT NULL DEFAULT session_user,
  client_time timestamptz NOT NULL,
  based_on_seq bigint CHECK (based_on_seq >= 0),
  seq bigint NOT NULL UNIQUE,
  server_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX review_events_partner_seq ON appraisal_team.review_events (partner_id, seq);

-- The outcome the local Wallet history records. Never a key, a secret, a URL
-- or the completion's redirect parameters: only flow, member, guarantee,
-- outcome, a plain reason and the times.
CREATE TABLE appraisal_team.wallet_link_events (
  id uuid PRIMARY KEY,
  partner_id text NOT NULL CHECK (length(partner_id) BETWEEN 1 AND 200),
  flow text NOT NULL CHECK (flow IN ('pre-sync', 'sync')),
  ref_user_id text NOT NULL CHECK (length(ref_user_id) BETWEEN 1 AND 200),
  guarantee_idx bigint CHECK (guarantee_idx >= 0),
  outcome text NOT NULL CHECK (outcome IN ('completed', 'cancelled', 'timed_out', 'blocked', 'failed')),
  reason text CHECK (length(reason) <= 500),
  author name NOT NULL DEFAULT session_user,
  started_at timestamptz NOT NULL,
  ended_at timestamptz NOT NULL,
  seq bigint NOT NULL UNIQUE,
  server_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wallet_link_events_partner_seq ON appraisal_team.wallet_link_events (partner_id, seq);

-- True when the session's login role belongs to a team granted this partner.
-- SECURITY DEFINER so staff need no access to the membership tables; the
-- search_path is pinned so a member cannot shadow the tables it reads.
CREATE FUNCTION appraisal_team.may_see(partner text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT EXISTS (
    SELECT 1
    FROM appraisal_team.members m
    JOIN appraisal_team.team_partners p ON p.team = m.team
    WHERE m.role_name = session_user AND p.partner_id = partner
  )
$$;

-- The session role's team, display name and granted partner accounts (one row
-- per partner; one row with a null partner when the team has none yet).
CREATE FUNCTION appraisal_team.session_team()
RETURNS TABLE (team text, display_name text, partner_id text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT m.team, m.display_name, p.partner_id
  FROM appraisal_team.members m
  LEFT JOIN appraisal_team.team_partners p ON p.team = m.team
  WHERE m.role_name = session_user
  ORDER BY p.partner_id
$$;

-- The members of the session role's team, to show names instead of roles.
CREATE FUNCTION appraisal_team.team_members()
RETURNS TABLE (role_name name, display_name text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT o.role_name, o.display_name
  FROM appraisal_team.members me
  JOIN appraisal_team.members o ON o.team = me.team
  WHERE me.role_name = session_user
  ORDER BY o.role_name
$$;

-- Numbers each new event. The transaction-level advisory lock makes writers
-- take numbers one transaction at a time, so sequence order is commit order:
-- a reader that has seen seq N never later meets a committed event below N.
-- It also overrides any seq or server time a writer tried to set.
CREATE FUNCTION appraisal_team.number_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('appraisal_team.event_seq'));
  NEW.seq := nextval('appraisal_team.event_seq');
  NEW.server_time := now();
  RETURN NEW;
END
$$;

-- Wakes every listening client; the payload is empty, so it tells a member of
-- another team nothing but "something changed" (clients then pull).
CREATE FUNCTION appraisal_team.notify_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('appraisal_team_events', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER review_events_number BEFORE INSERT ON appraisal_team.review_events
  FOR EACH ROW EXECUTE FUNCTION appraisal_team.number_event();
CREATE TRIGGER review_events_notify AFTER INSERT ON appraisal_team.review_events
  FOR EACH STATEMENT EXECUTE FUNCTION appraisal_team.notify_events();
CREATE TRIGGER wallet_link_events_number BEFORE INSERT ON appraisal_team.wallet_link_events
  FOR EACH ROW EXECUTE FUNCTION appraisal_team.number_event();
CREATE TRIGGER wallet_link_events_notify AFTER INSERT ON appraisal_team.wallet_link_events
  FOR EACH STATEMENT EXECUTE FUNCTION appraisal_team.notify_events();

-- History is never rewritten: staff read and append, nothing else. They may
-- not name seq or server_time (the trigger sets them anyway).
REVOKE ALL ON ALL TABLES IN SCHEMA appraisal_team FROM PUBLIC;
REVOKE ALL ON FUNCTION appraisal_team.may_see(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION appraisal_team.session_team() FROM PUBLIC;
REVOKE ALL ON FUNCTION appraisal_team.team_members() FROM PUBLIC;
REVOKE ALL ON FUNCTION appraisal_team.number_event() FROM PUBLIC;
REVOKE ALL ON FUNCTION appraisal_team.notify_events() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION appraisal_team.may_see(text) TO appraisal_team_staff;
GRANT EXECUTE ON FUNCTION appraisal_team.session_team() TO appraisal_team_staff;
GRANT EXECUTE ON FUNCTION appraisal_team.team_members() TO appraisal_team_staff;
GRANT EXECUTE ON FUNCTION appraisal_team.number_event() TO appraisal_team_staff;
GRANT EXECUTE ON FUNCTION appraisal_team.notify_events() TO appraisal_team_staff;
GRANT SELECT ON appraisal_team.review_events, appraisal_team.wallet_link_events TO appraisal_team_staff;
GRANT INSERT (id, partner_id, resource, record_idx, mark, note, author, client_time, based_on_seq)
  ON appraisal_team.review_events TO appraisal_team_staff;
GRANT INSERT (id, partner_id, flow, ref_user_id, guarantee_idx, outcome, reason, author, started_at, ended_at)
  ON appraisal_team.wallet_link_events TO appraisal_team_staff;

-- Row-level security: a member sees and appends only rows of the partner
-- accounts its team is granted, and only as itself. The table owner (the
-- administrator) is not subject to it; staff never own these tables.
ALTER TABLE appraisal_team.review_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE appraisal_team.wallet_link_events ENABLE ROW LEVEL SECURITY;

CREATE POLICY staff_read ON appraisal_team.review_events FOR SELECT TO appraisal_team_staff
  USING (appraisal_team.may_see(partner_id));
CREATE POLICY staff_append ON appraisal_team.review_events FOR INSERT TO appraisal_team_staff
  WITH CHECK (author = session_user AND appraisal_team.may_see(partner_id));
CREATE POLICY staff_read ON appraisal_team.wallet_link_events FOR SELECT TO appraisal_team_staff
  USING (appraisal_team.may_see(partner_id));
CREATE POLICY staff_append ON appraisal_team.wallet_link_events FOR INSERT TO appraisal_team_staff
  WITH CHECK (author = session_user AND appraisal_team.may_see(partner_id));
