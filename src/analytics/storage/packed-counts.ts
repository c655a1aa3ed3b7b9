/**
 * The encoding of every packed row's counters: for every page with any, in ascending path-id order,
 * unsigned LEB128 varints: the path id minus the previous entry's (the first entry: the id itself),
 * then the page's counters, as many as the column holds. Small numbers take one byte, so a typical
 * entry of the export's counts takes four or five bytes instead of sixteen: the export moves a fifth
 * of the bytes. The columns:
 *  - `analytics_packed_rollups.counts`: human, ai_assistant, ai_search + ai_training
 *    (`packedCountsWidth`);
 *  - `analytics_packed_rollups.detail` (migration 0022), the `?detail=categories` counters:
 *    ai_referred, ai_search, ai_training, bot, verified_ai (`packedDetailWidth`);
 *  - `analytics_visitor_packed.counts`: a day's, third's or month's visitor counts, the site's
 *    (path id 0) first (visitors/visitor-packing.ts).
 */
import { VarintReader, VarintWriter } from './varints.ts';

export const packedCountsWidth = 3;
export const packedDetailWidth = 5;

/** A page's path id and its counters. */
export type PackedEntry = readonly [pathId: number, counters: ArrayLike<number>];

/** Encodes entries of `width` counters each; throws on an entry out of order or of another width. */
export function encodePackedEntries(width: number, entries: Iterable<PackedEntry>): Buffer {
  const writer = new VarintWriter();
  let previous = 0;
  let first = true;
  for (const [pathId, counters] of entries) {
    if (!first && pathId <= previous)
      throw new RangeError('Packed entries must be in ascending path-id order');
    if (counters.length !== width) {
      throw new RangeError(`A packed entry has ${width} counters, not ${counters.length}`);
    }
    writer.write(pathId - previous);
    for (let index = 0; index < width; index += 1) writer.write(counters[index] as number);
    previous = pathId;
    first = false;
  }
  return writer.toBuffer();
}

/**
 * Calls `visit` for every entry with its `width` counters in `counters`, one array reused between
 * calls (copy what you keep); throws on a truncated buffer, naming it `label`.
 */
export function decodePackedEntries(
  bytes: Uint8Array,
  width: number,
  label: string,
  visit: (pathId: number, counters: Float64Array) => void,
): void {
  const reader = new VarintReader(bytes, label);
  const counters = new Float64Array(width);
  let pathId = 0;
  while (!reader.done) {
    pathId += reader.read();
    for (let index = 0; index < width; index += 1) counters[index] = reader.read();
    visit(pathId, counters);
  }
}
