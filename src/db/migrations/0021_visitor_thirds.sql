-- Thirds of a month (the 1st-10th, 11th-20th and 21st-end, as the view rollups' packing has them)
-- packed beside days and months: a 30-day range of visitors reads two thirds and a few days
-- instead of thirty days. A third is packed once all its days are, as a month is.
ALTER TABLE analytics_visitor_packed DROP CONSTRAINT analytics_visitor_packed_granularity_check;
ALTER TABLE analytics_visitor_packed ADD CONSTRAINT analytics_visitor_packed_granularity_check
  CHECK (granularity IN ('day', 'third', 'month'));

-- The packer packs a third or month when it packs its last day; forgetting the watermark makes it
-- walk the days packed before this migration again (their packed rows are kept) and pack their
-- thirds.
DELETE FROM analytics_visitor_packing;
