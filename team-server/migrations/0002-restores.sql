-- Team server schema, version 2: an undo is a new review event that restores
-- a record's earlier state; `restores` names the event whose mark, note and
-- author it brings back, so every member's app shows that author again.
-- Additive: older events keep a null. Frozen: a later change is a new file.
-- See docs/team.md.

ALTER TABLE appraisal_team.review_events ADD COLUMN restores uuid;

GRANT INSERT (restores) ON appraisal_team.review_events TO appraisal_team_staff;
