/** Unique visitors: the daily-salted identity, the marks, the day sketches and counts, and their packing. */
export { createVisitorIdentity, type VisitorIdentity, type VisitorSource } from './visitor-identity.ts';
export { compactAndPackVisitors } from './visitor-maintenance.ts';
export {
  compactVisitorMarks,
  decodeVisitorMarks,
  foldAllVisitorMarks,
  foldPendingVisitorMarks,
  foldProjectVisitorMarks,
  type HourMark,
  insertVisitorMarks,
  pendingVisitorMarksSql,
} from './visitor-marks.ts';
export {
  addVisitorCounts,
  dayRowCounts,
  decodeVisitorCounts,
  encodeVisitorCounts,
  VisitorCountSums,
} from './visitor-packing.ts';
export { type VisitorProfileKey, visitorProfileIds } from './visitor-profiles.ts';
export { reclassifyVisitorMarks, visitorFoldingLocksSql } from './visitor-reclassification.ts';
export {
  countsOf,
  type DaySketches,
  exportCounts,
  type StoredSketches,
  sitePathId,
  type VisitorCounts,
  type VisitorGroup,
  type VisitorMark,
  visitorGroupOf,
  visitorGroups,
} from './visitor-rollups.ts';
export { sparseLimit, VisitorSketch } from './visitor-sketch.ts';
export { VisitorTally } from './visitor-tally.ts';
