/**
 * How analytics data is laid out in PostgreSQL: UTC time buckets, monthly page-view partitions, the
 * per-project path dictionary, rollup series and the packed rollup encoding.
 */
export {
  dropMonthPartitionsBefore,
  ensurePageViewPartitions,
  listMonthPartitions,
} from './month-partitions.ts';
export {
  decodePackedEntries,
  encodePackedEntries,
  type PackedEntry,
  packedCountsWidth,
  packedDetailWidth,
} from './packed-counts.ts';
export { packedLevels, packingGraceMilliseconds, packingLock } from './packed-layout.ts';
export { assignPathIds, learnNewerPaths, type PathDictionary, pathDictionary } from './path-dictionary.ts';
export { type RollupSeries, rollupSeriesOf } from './rollup-series.ts';
export {
  bucketEnd,
  ceilBucket,
  floorBucket,
  floorDay,
  floorHour,
  floorMonth,
  type Granularity,
} from './time-buckets.ts';
export { VarintReader, VarintWriter } from './varints.ts';
