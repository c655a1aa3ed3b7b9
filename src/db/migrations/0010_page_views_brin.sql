-- Raw page views: each month partition is partitioned again by project (one leaf per project and
-- month), and views are found by time with a BRIN index instead of a B-tree on (project, time).
-- Views arrive in time order, so a BRIN block range covers a short span of time, and the index
-- costs the writer almost nothing per view, where the B-tree cost about a fifth of the ingestion
-- rate (docs/benchmarks.md). The leaf per project keeps a project's views together: the partial
-- hours at the edges of an export read that project's views of those hours, never another's.

-- A month partition, itself partitioned by project. Several processes may meet a new month at once:
-- they take turns, and the ones that come second find the table (this statement's catalog snapshot
-- may not show it yet, hence the handler).
CREATE OR REPLACE FUNCTION analytics_ensure_month_partition(month_start timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  start_at timestamp := date_trunc('month', month_start AT TIME ZONE 'UTC');
  partition_name text := format('analytics_page_views_%s', to_char(start_at, 'YYYY_MM'));
BEGIN
  IF to_regclass(partition_name) IS NOT NULL THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(7301190003);
  BEGIN
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF analytics_page_views FOR VALUES FROM (%L) TO (%L) PARTITION BY LIST (project_id)',
      partition_name,
      start_at AT TIME ZONE 'UTC',
      (start_at + interval '1 month') AT TIME ZONE 'UTC'
    );
  EXCEPTION WHEN duplicate_table THEN
    NULL;
  END;
END
$$;

-- The leaf that holds one project's views of one month (and its month partition).
CREATE FUNCTION analytics_ensure_page_view_partition(project text, month_start timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  start_at timestamp := date_trunc('month', month_start AT TIME ZONE 'UTC');
  month_name text := format('analytics_page_views_%s', to_char(start_at, 'YYYY_MM'));
  -- Project ids are not trusted as identifiers: the leaf is named by a hash of the id.
  leaf_name text := format('%s_%s', month_name, left(md5(project), 16));
BEGIN
  IF to_regclass(leaf_name) IS NOT NULL THEN
    RETURN;
  END IF;
  PERFORM analytics_ensure_month_partition(month_start);
  PERFORM pg_advisory_xact_lock(7301190003);
  BEGIN
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES IN (%L)', leaf_name, month_name, project);
  EXCEPTION WHEN duplicate_table THEN
    NULL;
  END;
END
$$;

DROP INDEX analytics_page_views_project_time;

-- Months stored so far become partitioned by project: moved into the new layout, month by month.
DO $$
DECLARE
  month record;
  project record;
BEGIN
  FOR month IN
    SELECT child.relname AS name, pg_get_expr(child.relpartbound, child.oid) AS bound
    FROM pg_inherits
    JOIN pg_class child ON child.oid = pg_inherits.inhrelid
    WHERE pg_inherits.inhparent = 'analytics_page_views'::regclass AND child.relkind = 'r'
  LOOP
    EXECUTE format('ALTER TABLE analytics_page_views DETACH PARTITION %I', month.name);
    EXECUTE format('ALTER TABLE %I RENAME TO %I', month.name, month.name || '_moving');
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF analytics_page_views %s PARTITION BY LIST (project_id)', month.name, month.bound
    );
    FOR project IN EXECUTE format('SELECT DISTINCT project_id FROM %I', month.name || '_moving') LOOP
      EXECUTE format(
        'CREATE TABLE %I PARTITION OF %I FOR VALUES IN (%L)',
        format('%s_%s', month.name, left(md5(project.project_id), 16)), month.name, project.project_id
      );
    END LOOP;
    EXECUTE format('INSERT INTO %I SELECT * FROM %I ORDER BY occurred_at', month.name, month.name || '_moving');
    EXECUTE format('DROP TABLE %I', month.name || '_moving');
  END LOOP;
END
$$;

-- 16 pages (about a thousand views) per block range: a partial hour reads little more than its own
-- views. Autosummarize: a range is summarized by autovacuum soon after it fills, instead of at the
-- next vacuum (unsummarized ranges are read by every query).
CREATE INDEX analytics_page_views_time ON analytics_page_views USING brin (occurred_at)
  WITH (pages_per_range = 16, autosummarize = on);
