-- Per-page rollups keyed by integers: (series, bucket, path id) instead of (project, granularity,
-- bucket, path). A series is one project's hour or day rollups (analytics_rollup_series); a path id
-- is one project's page (analytics_paths). The narrow key makes each rollup upsert of the writer
-- about a third cheaper (docs/benchmarks.md). From now on the writer gives a path its id, in its
-- own committed transaction, before it stores the first view of it, so every path in
-- analytics_page_views and analytics_path_rollups has one.

-- Ids for every path stored so far that has none (the packer gave ids only to packed pages).
INSERT INTO analytics_paths (project_id, id, path)
SELECT project_id,
  coalesce((SELECT max(id) FROM analytics_paths AS known WHERE known.project_id = missing.project_id), 0)
    + row_number() OVER (PARTITION BY project_id ORDER BY path COLLATE "C"),
  path
FROM (
  SELECT project_id, path FROM analytics_path_rollups
  UNION
  SELECT project_id, path FROM analytics_page_views
) AS missing
WHERE NOT EXISTS (
  SELECT FROM analytics_paths AS known WHERE known.project_id = missing.project_id AND known.path = missing.path
);

CREATE TABLE analytics_rollup_series (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id text NOT NULL,
  granularity text NOT NULL CHECK (granularity IN ('hour', 'day')),
  UNIQUE (project_id, granularity)
);

-- The series of a project's rollups of `level` ('hour' or 'day'); null until its first view.
CREATE FUNCTION analytics_series(project text, level text) RETURNS integer
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT id FROM analytics_rollup_series WHERE project_id = project AND granularity = level
$$;

INSERT INTO analytics_rollup_series (project_id, granularity)
SELECT DISTINCT project_id, granularity FROM analytics_path_rollups ORDER BY 1, 2;

CREATE TABLE analytics_path_rollups_by_id (
  series integer NOT NULL,
  bucket timestamptz NOT NULL,
  path_id integer NOT NULL,
  human integer NOT NULL DEFAULT 0,
  ai_assistant integer NOT NULL DEFAULT 0,
  ai_search integer NOT NULL DEFAULT 0,
  ai_training integer NOT NULL DEFAULT 0,
  bot integer NOT NULL DEFAULT 0,
  PRIMARY KEY (series, bucket, path_id)
) WITH (fillfactor = 70); -- room on each page for HOT updates of the counters

INSERT INTO analytics_path_rollups_by_id
SELECT series.id, rollup.bucket, paths.id,
  rollup.human, rollup.ai_assistant, rollup.ai_search, rollup.ai_training, rollup.bot
FROM analytics_path_rollups AS rollup
JOIN analytics_rollup_series AS series
  ON series.project_id = rollup.project_id AND series.granularity = rollup.granularity
JOIN analytics_paths AS paths ON paths.project_id = rollup.project_id AND paths.path = rollup.path
ORDER BY 1, 2, 3;

DROP TABLE analytics_path_rollups;
ALTER TABLE analytics_path_rollups_by_id RENAME TO analytics_path_rollups;
ALTER INDEX analytics_path_rollups_by_id_pkey RENAME TO analytics_path_rollups_pkey;
