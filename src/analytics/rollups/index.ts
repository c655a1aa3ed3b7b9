/**
 * Keeping the rollups right: packing closed buckets, verification, repair, reclassification and
 * retention.
 */
export {
  previewReclassification,
  type ReclassificationPreview,
  type ReclassifyReport,
  reclassifyPageViews,
} from './reclassify.ts';
export { retentionCutoff, startRetention } from './retention.ts';
export { packRollups, startRollupPacking } from './rollup-packer.ts';
export { rebuildRollups } from './rollup-rebuild.ts';
export { verifyRollups } from './rollup-verification.ts';
