-- The unique index that makes imports and drains idempotent (request-identity.ts) orders its
-- entries by time before the key: the same uniqueness, but live views, which arrive in time order,
-- go to the index's recent pages instead of random ones across all of it: 0.63 to 0.69 of the
-- time per insert on 2 to 6 million stored views (bench/import-key-index.ts). Rebuilt on every
-- leaf, which takes a while on a large history; views written meanwhile wait for it.
DROP INDEX analytics_page_views_import_key;
CREATE UNIQUE INDEX analytics_page_views_import_key
  ON analytics_page_views (project_id, occurred_at, import_key) WHERE import_key IS NOT NULL;
