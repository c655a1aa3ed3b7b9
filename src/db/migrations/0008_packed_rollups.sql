-- Packed rollups (src/analytics/rollup-packer.ts): once an hour, day, third of a month (days 1-10,
-- 11-20, 21-end) or month is over, its per-page counts are packed into one row, so that the export
-- reads one row per bucket instead of one row per page and bucket. The per-page hour and day rows
-- stay the source of truth, written with every raw insert; the month rows are no longer written.

-- Page paths as small integers, per project, for the packed rows. Only the packer adds to it,
-- holding the project's packing lock, so ids are dense and never change.
CREATE TABLE analytics_paths (
  project_id text NOT NULL,
  id integer NOT NULL,
  path text NOT NULL,
  PRIMARY KEY (project_id, id),
  UNIQUE (project_id, path)
);

-- One row per closed bucket: the per-page counts (human, ai_assistant, ai_search + ai_training) of
-- the pages with such views, as varints (src/analytics/packed-counts.ts). Pages with only `bot`
-- views are left out: the export does not show them. Stored uncompressed: reading is the point.
CREATE TABLE analytics_packed_rollups (
  project_id text NOT NULL,
  granularity text NOT NULL CHECK (granularity IN ('hour', 'day', 'third', 'month')),
  bucket timestamptz NOT NULL,
  counts bytea NOT NULL,
  PRIMARY KEY (project_id, granularity, bucket)
);
ALTER TABLE analytics_packed_rollups ALTER COLUMN counts SET STORAGE EXTERNAL;

-- Every bucket of the level that starts before `packed_until` is packed, or has no countable
-- views. Writers move it back when they add views to an older bucket.
CREATE TABLE analytics_packing (
  project_id text NOT NULL,
  granularity text NOT NULL,
  packed_until timestamptz NOT NULL,
  PRIMARY KEY (project_id, granularity)
);

DELETE FROM analytics_path_rollups WHERE granularity = 'month';
ALTER TABLE analytics_path_rollups DROP CONSTRAINT analytics_path_rollups_granularity_check;
ALTER TABLE analytics_path_rollups ADD CONSTRAINT analytics_path_rollups_granularity_check
  CHECK (granularity IN ('hour', 'day'));

-- The start of the bucket of `level` that holds `at`, in UTC.
CREATE FUNCTION analytics_bucket_start(level text, at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE level
    WHEN 'third' THEN (date_trunc('month', at AT TIME ZONE 'UTC')
      + CASE WHEN extract(day FROM at AT TIME ZONE 'UTC') < 11 THEN interval '0 days'
             WHEN extract(day FROM at AT TIME ZONE 'UTC') < 21 THEN interval '10 days'
             ELSE interval '20 days' END) AT TIME ZONE 'UTC'
    ELSE date_trunc(level, at, 'UTC')
  END
$$;

-- The end of the bucket of `level` that starts at `start`.
CREATE FUNCTION analytics_bucket_end(level text, start timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE level
    WHEN 'hour' THEN start + interval '1 hour'
    WHEN 'third' THEN CASE WHEN extract(day FROM start AT TIME ZONE 'UTC') = 21
      THEN (date_trunc('month', start AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'
      ELSE ((start AT TIME ZONE 'UTC') + interval '10 days') AT TIME ZONE 'UTC' END
    ELSE ((start AT TIME ZONE 'UTC') + ('1 ' || level)::interval) AT TIME ZONE 'UTC'
  END
$$;

-- The starts of the buckets of `level` in [low, high); both are bucket boundaries.
CREATE FUNCTION analytics_buckets(level text, low timestamptz, high timestamptz) RETURNS SETOF timestamptz
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE ROWS 12 AS $$
DECLARE
  bucket timestamptz := low;
BEGIN
  WHILE bucket < high LOOP
    RETURN NEXT bucket;
    bucket := analytics_bucket_end(level, bucket);
  END LOOP;
END
$$;

-- Which per-page rollup rows a bucket of `level` sums: hours its hour, the others their days.
CREATE FUNCTION analytics_row_level(level text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE level WHEN 'hour' THEN 'hour' ELSE 'day' END
$$;
