-- Raw page views are found by time with a BRIN index instead of a B-tree on (project, time): views
-- arrive in time order, so each block range covers a short span of time, and the index costs the
-- writer almost nothing per view, where the B-tree cost about a quarter of each raw insert
-- (docs/benchmarks.md). Raw events are read only for the partial hours at the edges of an export
-- (rollups answer the rest), by `verify`, `reclassify` and retention; an edge now reads every
-- project's views of that hour and keeps the project's, which stays small unless one database
-- serves many busy projects (docs/analytics.md, Known limits).
DROP INDEX analytics_page_views_project_time;
CREATE INDEX analytics_page_views_time ON analytics_page_views USING brin (occurred_at);
