-- The unique index that makes imports and drains idempotent (request-identity.ts) moves to the
-- leaves of analytics_page_views and orders its entries by time before the key:
--  - Each leaf holds one project's views of one month (migration 0010), so the project column the
--    parent's index had to carry was the same in every entry of a leaf. `ON CONFLICT DO NOTHING`
--    without a target, as the writer has it, checks the unique indexes of the leaf a row goes to:
--    the same uniqueness as (project, time, key), with entries a third smaller.
--  - Time first: live views, which arrive in time order, go to the index's recent pages instead of
--    random ones across all of it.
-- Measured with `node bench/import-key-index.ts` (docs/benchmarks.md). Every leaf's index is built
-- here, which takes a while on a large history; views written meanwhile wait for it.
DROP INDEX analytics_page_views_import_key;

CREATE FUNCTION analytics_create_import_key_index(leaf text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(
    'CREATE UNIQUE INDEX IF NOT EXISTS %I ON %I (occurred_at, import_key) WHERE import_key IS NOT NULL',
    leaf || '_import_key', leaf
  );
END
$$;

-- As in migration 0010, and the new leaf gets its import-key index.
CREATE OR REPLACE FUNCTION analytics_ensure_page_view_partition(project text, month_start timestamptz) RETURNS void
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
    PERFORM analytics_create_import_key_index(leaf_name);
  EXCEPTION WHEN duplicate_table THEN
    NULL;
  END;
END
$$;

DO $$
DECLARE
  leaf record;
BEGIN
  FOR leaf IN
    SELECT relid::regclass::text AS name FROM pg_partition_tree('analytics_page_views') WHERE isleaf
  LOOP
    PERFORM analytics_create_import_key_index(leaf.name);
  END LOOP;
END
$$;
