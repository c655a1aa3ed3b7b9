/**
 * The encoding of a packed bucket (analytics_packed_rollups.counts): for every page with views,
 * in ascending path-id order, four unsigned LEB128 varints: the path id minus the previous
 * entry's (the first entry: the id itself), human, ai_assistant, and ai_search + ai_training.
 * Small numbers take one byte, so a typical entry takes four or five bytes instead of sixteen:
 * the export moves a fifth of the bytes.
 */

export interface PackedEntry {
  pathId: number;
  human: number;
  aiAssistant: number;
  aiCrawlers: number;
}

export function encodePackedCounts(entries: readonly PackedEntry[]): Buffer {
  const bytes: number[] = [];
  const write = (value: number) => {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Cannot pack ${value}`);
    let rest = value;
    while (rest >= 0x80) {
      bytes.push((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    bytes.push(rest);
  };
  let previous = 0;
  for (const entry of entries) {
    if (entry.pathId <= previous) throw new RangeError('Packed entries must be in ascending path-id order');
    write(entry.pathId - previous);
    write(entry.human);
    write(entry.aiAssistant);
    write(entry.aiCrawlers);
    previous = entry.pathId;
  }
  return Buffer.from(bytes);
}

/** Calls `visit` for every entry; throws on a truncated buffer. */
export function decodePackedCounts(
  counts: Uint8Array,
  visit: (pathId: number, human: number, aiAssistant: number, aiCrawlers: number) => void,
): void {
  let offset = 0;
  const read = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = counts[offset];
      if (byte === undefined) throw new RangeError('Truncated packed counts');
      offset += 1;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  };
  let pathId = 0;
  while (offset < counts.length) {
    pathId += read();
    const human = read();
    const aiAssistant = read();
    visit(pathId, human, aiAssistant, read());
  }
}
