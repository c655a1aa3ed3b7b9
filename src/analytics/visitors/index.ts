/** Unique visitors: the daily-salted identity, the distinct-count sketch and the sketch rollups. */
export { createVisitorIdentity, type VisitorIdentity, type VisitorSource } from './visitor-identity.ts';
export {
  decodeVisitorMarks,
  foldAllVisitorMarks,
  foldVisitorMarks,
  type HourMark,
  insertVisitorMarks,
} from './visitor-marks.ts';
export {
  addVisitorsToRollups,
  sitePathId,
  type VisitorGroup,
  type VisitorMark,
  visitorGroupOf,
  visitorGroups,
} from './visitor-rollups.ts';
export { sparseLimit, VisitorSketch } from './visitor-sketch.ts';
