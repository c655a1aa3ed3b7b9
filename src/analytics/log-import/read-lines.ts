/**
 * Splits a byte stream into lines without ever holding more than one line (capped) in memory, so a
 * log file of any size streams through. A line longer than the cap is reported as such and skipped.
 */

export type ReadLine = { number: number; text: string } | { number: number; tooLong: true };

export async function* readLines(
  source: AsyncIterable<Uint8Array | string>,
  options: { maximumLineLength: number },
): AsyncGenerator<ReadLine> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let discarding = false;
  let number = 0;
  const emit = (text: string): ReadLine => {
    number += 1;
    if (discarding) return { number, tooLong: true };
    return { number, text: text.endsWith('\r') ? text.slice(0, -1) : text };
  };
  for await (const chunk of source) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      const line = pending + text.slice(start, newline);
      pending = '';
      if (line.length > options.maximumLineLength) discarding = true;
      yield emit(line);
      discarding = false;
      start = newline + 1;
    }
    if (!discarding) {
      pending += text.slice(start);
      // Past the cap the rest of this line is dropped as it arrives; only its number is reported.
      if (pending.length > options.maximumLineLength) {
        discarding = true;
        pending = '';
      }
    }
  }
  const rest = pending + decoder.decode();
  if (rest !== '' || discarding) yield emit(rest);
}
