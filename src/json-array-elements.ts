/**
 * The elements of a large JSON array read from its bytes one element at a time, never from one
 * string of the whole text: V8 puts every string over 128 KiB in freshly mapped pages, and on a
 * virtual machine whose page faults are dear (this project's, docs/benchmarks.md) decoding a 350 KB
 * body into one string cost more than parsing it. Used by the drains and the JSON body parser.
 */

/** Bodies up to this size are quicker parsed whole; well below 128 KiB even for two-byte text. */
export const wholeTextBytes = 48 * 1024;

/** JSON's whitespace: space, tab, line feed and carriage return (not JavaScript's `\s`). */
export function isJsonWhitespaceByte(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** The index of the last byte of `body` that is not JSON whitespace, before `end`. */
export function lastNonWhitespace(body: Buffer, end = body.length): number {
  let index = end - 1;
  while (index >= 0 && isJsonWhitespaceByte(body[index] as number)) index -= 1;
  return index;
}

/**
 * The elements of the array from the `[` at `open` to the `]` at `close`, each parsed from its own
 * slice, or `undefined` when they cannot be told apart this way (the caller then parses the whole
 * text). Objects are cut at every `},{`, the way clients and providers write their arrays; a cut
 * inside a string or a nested array leaves a piece that is no JSON value, and that piece is extended
 * to the next cut. When every piece parses, the text is `[` piece `,` piece ... `]` with each piece
 * a whole JSON value, which is a valid array whose elements are exactly those pieces (a JSON value's
 * end is fixed by its start). Extending costs a failed parse: once the failures have read as many
 * bytes as the body, this gives up.
 */
export function arrayElements(body: Buffer, open: number, close: number): unknown[] | undefined {
  const elements: unknown[] = [];
  const reader = readArrayElements(body, open, close);
  for (let next = reader.next(); ; next = reader.next()) {
    if (next.done) return next.value ? elements : undefined;
    for (const element of next.value) elements.push(element);
  }
}

/**
 * `arrayElements` a slice at a time: yields the elements as they are cut and parsed, up to
 * `sliceSize` at once (a generator's step per element cost a drained view more than the rest of
 * reading it), and returns true when the array ended so, false when this way gave up. Whether the
 * text is a JSON array at all is known only then; the elements yielded before are its first ones if
 * it is (each started where an element starts, and parsed as a whole value).
 */
export function* readArrayElements(
  body: Buffer,
  open: number,
  close: number,
  sliceSize = 1000,
): Generator<unknown[], boolean> {
  if (body[open] !== openBracket || body[close] !== closeBracket || close <= open) return false;
  let cut = body.indexOf(separator, open);
  if (cut === -1 || cut > close) return false;
  let failedBytes = 0;
  let start = open + 1;
  let slice: unknown[] = [];
  for (;;) {
    const end = cut === -1 || cut > close ? close : cut + 1;
    const element = parsedJson(body.toString('utf8', start, end));
    if (element !== notJson) {
      slice.push(element);
      if (end === close) {
        yield slice;
        return true;
      }
      if (slice.length === sliceSize) {
        yield slice;
        slice = [];
      }
      start = cut + 2;
    } else {
      failedBytes += end - start;
      if (end === close || failedBytes > body.length) {
        if (slice.length > 0) yield slice;
        return false;
      }
    }
    cut = body.indexOf(separator, cut + 1);
  }
}

const openBracket = 0x5b;
const closeBracket = 0x5d;
const separator = Buffer.from('},{');

/** What `parsedJson` answers for text that is not JSON (JSON.parse never returns a symbol). */
export const notJson = Symbol('not JSON');

export function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return notJson;
  }
}
