/**
 * The encoding of a packed bucket (analytics_packed_rollups.counts): for every page with views,
 * in ascending path-id order, four unsigned LEB128 varints: the path id minus the previous
 * entry's (the first entry: the id itself), human, ai_assistant, and ai_search + ai_training.
 * Small numbers take one byte, so a typical entry takes four or five bytes instead of sixteen:
 * the export moves a fifth of the bytes.
 */
import { VarintReader, VarintWriter } from './varints.ts';

export interface PackedEntry {
  pathId: number;
  human: number;
  aiAssistant: number;
  aiCrawlers: number;
}

export function encodePackedCounts(entries: readonly PackedEntry[]): Buffer {
  const writer = new VarintWriter();
  let previous = 0;
  for (const entry of entries) {
    if (entry.pathId <= previous) throw new RangeError('Packed entries must be in ascending path-id order');
    writer.write(entry.pathId - previous);
    writer.write(entry.human);
    writer.write(entry.aiAssistant);
    writer.write(entry.aiCrawlers);
    previous = entry.pathId;
  }
  return writer.toBuffer();
}

/** Calls `visit` for every entry; throws on a truncated buffer. */
export function decodePackedCounts(
  counts: Uint8Array,
  visit: (pathId: number, human: number, aiAssistant: number, aiCrawlers: number) => void,
): void {
  const reader = new VarintReader(counts, 'packed counts');
  let pathId = 0;
  while (!reader.done) {
    pathId += reader.read();
    const human = reader.read();
    const aiAssistant = reader.read();
    visit(pathId, human, aiAssistant, reader.read());
  }
}

/**
 * The `?detail=categories` counters of a packed bucket (analytics_packed_rollups.detail, migration
 * 0022), encoded like the counts: for every page with any of them, in ascending path-id order, six
 * varints: the path id minus the previous entry's, ai_referred, ai_search, ai_training, bot,
 * verified_ai.
 */
export interface PackedDetailEntry {
  pathId: number;
  /** ai_referred, ai_search, ai_training, bot, verified_ai. */
  detail: readonly [number, number, number, number, number];
}

export function encodePackedDetail(entries: readonly PackedDetailEntry[]): Buffer {
  const writer = new VarintWriter();
  let previous = 0;
  for (const entry of entries) {
    if (entry.pathId <= previous) throw new RangeError('Packed entries must be in ascending path-id order');
    writer.write(entry.pathId - previous);
    for (const count of entry.detail) writer.write(count);
    previous = entry.pathId;
  }
  return writer.toBuffer();
}

/** Calls `visit` for every entry with its five counters in `detail` (reused between calls). */
export function decodePackedDetail(
  bytes: Uint8Array,
  visit: (pathId: number, detail: Float64Array) => void,
): void {
  const reader = new VarintReader(bytes, 'packed detail');
  const detail = new Float64Array(5);
  let pathId = 0;
  while (!reader.done) {
    pathId += reader.read();
    for (let index = 0; index < 5; index += 1) detail[index] = reader.read();
    visit(pathId, detail);
  }
}
