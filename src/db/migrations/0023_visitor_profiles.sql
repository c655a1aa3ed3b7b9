-- What a visitor mark was classified from: the view's user agent, Markdown flag and Web Bot Auth
-- signer, the inputs `quire analytics reclassify` classifies again. A mark carries its profile's id
-- (src/analytics/visitors/visitor-marks.ts), so that reclassification moves visitors between
-- human and AI with their views. Marks written before this migration carry 0: unknown.
CREATE TABLE analytics_visitor_profiles (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id text NOT NULL,
  -- 0: no user agent; '': no signer (so that lookups are plain equalities on the unique index).
  user_agent_id bigint NOT NULL,
  markdown boolean NOT NULL,
  signature_agent text NOT NULL,
  UNIQUE (project_id, user_agent_id, markdown, signature_agent)
);
