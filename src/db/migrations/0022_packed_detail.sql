-- The `?detail=categories` counters (aiReferred, aiSearch, aiTraining, otherBots, verifiedAi) packed
-- beside the export's counts, so the detailed export reads the same few rows as the plain one
-- instead of every page's rollup row of every bucket. Packed rows are derived data: those written
-- before have no detail, so they are dropped with their watermarks and the packer writes them again
-- (meanwhile the export reads the per-page rows, with the same results).
DELETE FROM analytics_packed_rollups;
DELETE FROM analytics_packing;
ALTER TABLE analytics_packed_rollups ADD COLUMN detail bytea NOT NULL;
