/**
 * A drained request body to JSON records: gzip (by its magic bytes, whatever the headers say:
 * Cloudflare Logpush always compresses) decompressed with a cap on the output, then one JSON
 * array (Vercel's and Netlify's `json` delivery) or JSON lines (`ndjson`, Cloudflare).
 *
 * The records of a large body are read from its bytes one at a time, never from one string of the
 * whole body (json-array-elements.ts says why); for the same reason an inflated body stays in the
 * chunks zlib wrote it in.
 */
import { createGunzip } from 'node:zlib';
import type { Reservation } from '../../byte-budget.ts';
import { InvalidInputError, isQuireError, PayloadTooLargeError } from '../../errors.ts';
import {
  isJsonWhitespaceByte,
  lastNonWhitespace,
  notJson,
  parsedJson,
  readArrayElements,
  wholeTextBytes,
} from '../../json-array-elements.ts';
import { gunzipChunkBytes } from '../log-import/index.ts';

/** Decompressed bodies above this are refused (413): a few MB compress to a few hundred KB. */
export const maximumDecompressedBytes = 64 * 1024 * 1024;

/**
 * The bytes a body is expected to take once decompressed, to reserve before reading it: a gzip
 * body's own trailer says (ISIZE, the last member's length modulo 2^32, RFC 1952 section 2.3.1),
 * capped at what is accepted; a plain body is its length. A trailer that understates only means the
 * reservation grows while inflating.
 */
export function expectedBodyBytes(body: Buffer): number {
  if (!isGzip(body) || body.length < 18) return body.length;
  return Math.min(body.readUInt32LE(body.length - 4), maximumDecompressedBytes);
}

const isGzip = (body: Buffer) => body[0] === 0x1f && body[1] === 0x8b;

/**
 * The body's bytes, in the chunks they were inflated in: joining a Logpush batch's 1.9 MB into one
 * buffer cost more than inflating it (docs/benchmarks.md), and JSON lines need no join. With a
 * reservation, inflating pauses whenever the output outgrows it until it has grown.
 */
export async function decompressBody(body: Buffer, memory?: Reservation): Promise<Buffer[]> {
  if (!isGzip(body)) return [body];
  const chunks: Buffer[] = [];
  let total = 0;
  const gunzip = createGunzip({ chunkSize: gunzipChunkBytes });
  return new Promise((resolve, reject) => {
    gunzip.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maximumDecompressedBytes) {
        gunzip.destroy(
          new PayloadTooLargeError(`The decompressed body is over ${maximumDecompressedBytes} bytes`),
        );
        return;
      }
      chunks.push(chunk);
      if (memory !== undefined && total > memory.bytes) {
        gunzip.pause();
        memory.grow(total - memory.bytes).then(
          () => gunzip.resume(),
          (error: unknown) => gunzip.destroy(error as Error),
        );
      }
    });
    gunzip.on('end', () => resolve(chunks));
    gunzip.on('error', (error: unknown) => {
      reject(
        isQuireError(error)
          ? error
          : new InvalidInputError('The body starts like gzip but is not valid gzip'),
      );
    });
    gunzip.end(body);
  });
}

/**
 * True when no string in the body can hold a control character: JSON strings cannot hold a raw
 * one, so without an escape sequence or DEL none can (http/json-body.ts makes the same judgement).
 * Bytes of UTF-8's multi-byte characters are all above 0x7f, so the bytes tell.
 */
export function isPlainText(chunks: readonly Buffer[]): boolean {
  return chunks.every((chunk) => !chunk.includes(0x5c) && !chunk.includes(0x7f));
}

/** One record per array element or per line; `undefined` for a line that is not JSON. */
export function bodyRecords(chunks: readonly Buffer[]): unknown[] {
  const records: unknown[] = [];
  for (const slice of readBodyRecords(chunks).slices) for (const record of slice) records.push(record);
  return records;
}

export interface BodyRecords {
  /**
   * The records in slices of up to 1,000, each parsed when it is taken, so that a large body's
   * parsed records are never all in memory at once (60 MB of `{}` lines parse into 1.36 GB). Taking
   * them throws `InvalidInputError` where `bodyRecords` would: for JSON lines only once every line
   * was no JSON.
   */
  slices: Iterable<unknown[]>;
  /**
   * A JSON array read in pieces is known to be one only at its end, and may be refused (400) after
   * its first records: nothing read from it may be stored before then.
   */
  validAtEnd: boolean;
}

/** `bodyRecords`, read lazily. */
export function readBodyRecords(chunks: readonly Buffer[]): BodyRecords {
  const whole = (records: unknown[]) => ({ slices: [records], validAtEnd: false });
  const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  // Small bodies are parsed whole, which is as quick for them (bench/drain-body.ts).
  if (length <= wholeTextBytes) return whole(textRecords(joined(chunks).toString('utf8')));
  const first = firstNonWhitespace(chunks);
  if (first === undefined) return whole([]);
  // A body that starts with a character beyond ASCII (a byte-order mark, say) is neither shape;
  // it gets the same answer as ever from the text.
  if (first >= 0x80) return whole(textRecords(joined(chunks).toString('utf8')));
  if (first === openBracket) return { slices: arraySlices(joined(chunks)), validAtEnd: true };
  return { slices: jsonLines(chunks), validAtEnd: false };
}

/** Records handed out at once. */
const sliceSize = 1000;

function* arraySlices(body: Buffer): Generator<unknown[]> {
  // Read by the pieces only between JSON's own whitespace: a form feed before the `[` is fine to
  // JavaScript's `\s` but not to JSON.parse, which must still refuse the body.
  let open = 0;
  while (isJsonWhitespaceByte(body[open] as number)) open += 1;
  let read = 0;
  const elements = readArrayElements(body, open, lastNonWhitespace(body), sliceSize);
  let next = elements.next();
  for (; !next.done; next = elements.next()) {
    read += next.value.length;
    yield next.value;
  }
  // Done when every piece parsed (the reader returned true); else the whole text decides, and the
  // elements read so far were its first ones.
  if (!next.value) yield wholeArray(body.toString('utf8')).slice(read);
}

const openBracket = 0x5b;
const newline = 0x0a;

function joined(chunks: readonly Buffer[]): Buffer {
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

/** ASCII bytes that JavaScript's `\s` matches: tab, line feed, vertical tab, form feed, CR, space. */
function isWhitespaceByte(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

/** The body's first byte that is not ASCII whitespace as `\s` sees it; `undefined` when none. */
function firstNonWhitespace(chunks: readonly Buffer[]): number | undefined {
  for (const chunk of chunks) {
    for (let index = 0; index < chunk.length; index += 1) {
      const byte = chunk[index] as number;
      if (!isWhitespaceByte(byte)) return byte;
    }
  }
  return undefined;
}

function* jsonLines(chunks: readonly Buffer[]): Generator<unknown[]> {
  let json = 0;
  let slice: unknown[] = [];
  let lines = 0;
  const read = (line: string) => {
    if (line.trim() === '') return;
    lines += 1;
    const record = parsedJson(line);
    if (record === notJson) slice.push(undefined);
    else {
      json += 1;
      slice.push(record);
    }
  };
  // Every byte of a multi-byte UTF-8 character is above 0x7f, so no line break is inside one. A
  // line that runs on into later chunks is joined once, when it ends: joining at every chunk would
  // copy a long line once per chunk (a 64 MB body of one line, 256 times).
  const carried: Buffer[] = [];
  for (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(newline); end !== -1; end = chunk.indexOf(newline, start)) {
      if (carried.length === 0) {
        if (end > start) read(chunk.toString('utf8', start, end));
      } else read(Buffer.concat(carried.splice(0).concat(chunk.subarray(start, end))).toString('utf8'));
      start = end + 1;
      if (slice.length === sliceSize) {
        yield slice;
        slice = [];
      }
    }
    if (start < chunk.length) carried.push(chunk.subarray(start));
  }
  if (carried.length > 0) read(Buffer.concat(carried).toString('utf8'));
  if (slice.length > 0) yield slice;
  // Only undefined records came before this: none of them could be stored.
  if (lines > 0 && json === 0) throw neitherShape();
}

/** The rules for a decoded body: a JSON array when it starts with `[`, else JSON lines. */
function textRecords(text: string): unknown[] {
  const start = text.search(/\S/);
  if (start === -1) return [];
  if (text[start] === '[') return wholeArray(text);
  const records = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const record = parsedJson(line);
      return record === notJson ? undefined : record;
    });
  // One entry written over several lines (Vercel's documentation shows one so): the whole body is it.
  if (text[start] === '{' && records.some((record) => record === undefined)) {
    const whole = parsedJson(text);
    if (whole !== notJson && typeof whole === 'object' && whole !== null && !Array.isArray(whole))
      return [whole];
  }
  return linesOrRefused(records);
}

function wholeArray(text: string): unknown[] {
  const records = parsedJson(text);
  if (records === notJson) throw new InvalidInputError('The body starts with [ but is not a JSON array');
  if (!Array.isArray(records)) throw new InvalidInputError('The body is not a JSON array');
  return records;
}

function linesOrRefused(records: unknown[]): unknown[] {
  if (records.length > 0 && records.every((record) => record === undefined)) throw neitherShape();
  return records;
}

const neitherShape = () => new InvalidInputError('The body is neither JSON lines nor a JSON array');
