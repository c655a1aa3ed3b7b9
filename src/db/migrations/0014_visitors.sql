-- Unique visitors (src/analytics/visitors/, docs/analytics.md "Visitors").

-- The salt of each UTC day's visitor identity (a keyed hash of address and user agent). Kept only
-- for yesterday, today and tomorrow (views may be a day early or late), then deleted: once a
-- day's salt is gone, nothing links that day's sketches to an address any more.
CREATE TABLE analytics_visitor_salts (
  day date PRIMARY KEY,
  salt bytea NOT NULL CHECK (length(salt) = 32)
);

-- Distinct-visitor sketches (src/analytics/visitors/visitor-sketch.ts) per page per hour and day,
-- keyed like analytics_path_rollups; path id 0 is the whole site, whose visitors are not the sum
-- of its pages'. One sketch per group: human, ai_assistant, and the AI crawlers (ai_search and
-- ai_training, counted as `ai` where the project says so); null: no such visitor. Bots have none.
CREATE TABLE analytics_visitor_rollups (
  series integer NOT NULL,
  bucket timestamptz NOT NULL,
  path_id integer NOT NULL,
  human bytea,
  ai_assistant bytea,
  ai_crawlers bytea,
  PRIMARY KEY (series, bucket, path_id)
);

-- The visitors of committed views not folded into the sketches yet: one row per writer
-- transaction and project, appended in the transaction that stores the views (an insert is all
-- the writer pays), folded into analytics_visitor_rollups and deleted by the maintenance loop a
-- few seconds later (src/analytics/visitors/visitor-marks.ts). Exports read the rows still here.
CREATE TABLE analytics_visitor_marks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id text NOT NULL,
  first_hour timestamptz NOT NULL,
  last_hour timestamptz NOT NULL,
  marks bytea NOT NULL
);
CREATE INDEX analytics_visitor_marks_project ON analytics_visitor_marks (project_id, first_hour);
