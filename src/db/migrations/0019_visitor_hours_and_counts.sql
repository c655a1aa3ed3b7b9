-- Visitors at any range without merging sketches (src/analytics/visitors/, docs/analytics.md
-- "Visitors"). A visitor is a keyed hash under the salt of its UTC day, so the visitors of two days
-- never share a value: a range's visitors are the sum of its days'. Days are therefore stored as
-- counts, packed like the view rollups, and sketches are kept only where a union is still needed:
-- within a day.

-- Marks stay after folding, as the exact visitors of their hours (a range's partial days are read
-- from them): 0 pending, 1 folded into the day sketches, 2 folded and compacted into one row per
-- project and hour. Existing rows are pending.
ALTER TABLE analytics_visitor_marks ADD COLUMN state smallint NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2));
-- Compacted rows by their hour; the few others by their last hour (a writer's row may span many
-- hours, so a range finds them as the rows that end after it starts); pending rows in order.
DROP INDEX analytics_visitor_marks_project;
CREATE INDEX analytics_visitor_marks_hours ON analytics_visitor_marks (project_id, first_hour) WHERE state = 2;
CREATE INDEX analytics_visitor_marks_recent ON analytics_visitor_marks (project_id, last_hour) WHERE state < 2;
CREATE INDEX analytics_visitor_marks_pending ON analytics_visitor_marks (id) WHERE state = 0;

-- A day row's counts, set with its sketches: human, ai_assistant, AI (ai_assistant or a crawler),
-- total (human or ai_assistant) and total with crawlers (anyone). Null on rows written before this
-- migration: readers count their sketches instead. Hour rows are no longer written; the ones
-- written before stay readable.
ALTER TABLE analytics_visitor_rollups ADD COLUMN counts integer[] CHECK (cardinality(counts) = 5);

-- Every page's day counts of one closed day or month, in one row (visitor-packing.ts).
CREATE TABLE analytics_visitor_packed (
  project_id text NOT NULL,
  granularity text NOT NULL CHECK (granularity IN ('day', 'month')),
  bucket timestamptz NOT NULL,
  counts bytea NOT NULL,
  PRIMARY KEY (project_id, granularity, bucket)
);

-- Days before `packed_until` are packed (or have no visitors); folding late marks into an earlier
-- day moves it back.
CREATE TABLE analytics_visitor_packing (
  project_id text PRIMARY KEY,
  packed_until timestamptz NOT NULL
);
