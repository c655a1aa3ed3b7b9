/** Keeping the rollups right: packing closed buckets, verification, reclassification and retention. */
export { reclassifyPageViews } from './reclassify.ts';
export { retentionCutoff, startRetention } from './retention.ts';
export { packRollups, startRollupPacking } from './rollup-packer.ts';
export { verifyRollups } from './rollup-verification.ts';
