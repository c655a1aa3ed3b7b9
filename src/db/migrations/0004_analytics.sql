-- Page-view analytics (DESIGN.md §4): raw events partitioned by month, and rollups kept up to date
-- in the same transaction as every raw insert, so that exports read rollups, not raw events.

-- One row per page view. Monthly partitions are created on demand by
-- analytics_ensure_month_partition(), called before an insert touches a new month, and dropped
-- whole when they pass the retention period. No foreign key to projects here: the writer has
-- already checked the project through the API key, and a per-row check would cost ingestion speed.
CREATE TABLE analytics_page_views (
  project_id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  path text NOT NULL,
  category text NOT NULL
    CHECK (category IN ('human', 'ai_assistant', 'ai_search', 'ai_training', 'bot')),
  agent text,
  classifier_version text NOT NULL,
  -- Reclassification needs the user agent; it is stored once in analytics_user_agents.
  -- Null: the ingesting client did not report one.
  user_agent_id bigint,
  markdown boolean NOT NULL,
  referrer_host text,
  -- Set by log imports: a hash of the line and its number, so a re-run counts nothing twice.
  import_key bytea
) PARTITION BY RANGE (occurred_at);

CREATE INDEX analytics_page_views_project_time ON analytics_page_views (project_id, occurred_at);
CREATE UNIQUE INDEX analytics_page_views_import_key
  ON analytics_page_views (project_id, import_key, occurred_at) WHERE import_key IS NOT NULL;

-- Distinct user agents, keyed by the first 8 bytes of their SHA-256 (computed by the writer, so an
-- insert needs no round trip to learn an id).
CREATE TABLE analytics_user_agents (
  id bigint PRIMARY KEY,
  user_agent text NOT NULL
);

-- Views per page per hour, day and month, one counter per category. The export sums these.
-- Like the raw events, the rollups have no foreign key to projects: measured, the per-row check
-- took a quarter of the ingestion statement's time. Counters are integers (2^31 views of one page
-- in one month is out of reach) because summing int4 is much cheaper than summing int8.
CREATE TABLE analytics_path_rollups (
  project_id text NOT NULL,
  granularity text NOT NULL CHECK (granularity IN ('hour', 'day', 'month')),
  bucket timestamptz NOT NULL,
  path text NOT NULL,
  human integer NOT NULL DEFAULT 0,
  ai_assistant integer NOT NULL DEFAULT 0,
  ai_search integer NOT NULL DEFAULT 0,
  ai_training integer NOT NULL DEFAULT 0,
  bot integer NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, granularity, bucket, path)
) WITH (fillfactor = 70); -- room on each page for HOT updates of the counters

-- Views per agent (empty for people and unnamed clients) and category per hour, day and month:
-- the agents breakdown and the time series.
CREATE TABLE analytics_agent_rollups (
  project_id text NOT NULL,
  granularity text NOT NULL CHECK (granularity IN ('hour', 'day', 'month')),
  bucket timestamptz NOT NULL,
  category text NOT NULL,
  agent text NOT NULL,
  views bigint NOT NULL,
  PRIMARY KEY (project_id, granularity, bucket, category, agent)
) WITH (fillfactor = 70);

CREATE FUNCTION analytics_ensure_month_partition(month_start timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  start_at timestamp := date_trunc('month', month_start AT TIME ZONE 'UTC');
  partition_name text := format('analytics_page_views_%s', to_char(start_at, 'YYYY_MM'));
BEGIN
  IF to_regclass(partition_name) IS NOT NULL THEN
    RETURN;
  END IF;
  -- Several processes may meet a new month at once: they take turns, and the ones that come
  -- second find the table (this statement's catalog snapshot may not show it yet, hence the handler).
  PERFORM pg_advisory_xact_lock(7301190003);
  BEGIN
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF analytics_page_views FOR VALUES FROM (%L) TO (%L)',
      partition_name,
      start_at AT TIME ZONE 'UTC',
      (start_at + interval '1 month') AT TIME ZONE 'UTC'
    );
  EXCEPTION WHEN duplicate_table THEN
    NULL;
  END;
END
$$;
