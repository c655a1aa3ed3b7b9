/**
 * A drained request body to JSON records: gzip (by its magic bytes, whatever the headers say:
 * Cloudflare Logpush always compresses) decompressed with a cap on the output, then one JSON
 * array (Vercel's and Netlify's `json` delivery) or JSON lines (`ndjson`, Cloudflare).
 *
 * The records of a large body are read from its bytes one at a time, never from one string of the
 * whole body: V8 puts every string over 128 KiB in freshly mapped pages, and on a virtual machine
 * whose page faults are dear (this project's, measured in docs/benchmarks.md) decoding a 350 KB
 * Vercel batch into one string cost 1.2-1.6 ms, more than parsing it.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { InvalidInputError, PayloadTooLargeError } from '../../errors.ts';
import { gunzipChunkBytes } from '../log-import/index.ts';

const gunzipAsync = promisify(gunzip);

/** Decompressed bodies above this are refused (413): a few MB compress to a few hundred KB. */
export const maximumDecompressedBytes = 64 * 1024 * 1024;

export async function decompressBody(body: Buffer): Promise<Buffer> {
  if (body[0] !== 0x1f || body[1] !== 0x8b) return body;
  try {
    return await gunzipAsync(body, {
      maxOutputLength: maximumDecompressedBytes,
      chunkSize: gunzipChunkBytes,
    });
  } catch (error: unknown) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') {
      throw new PayloadTooLargeError(`The decompressed body is over ${maximumDecompressedBytes} bytes`);
    }
    throw new InvalidInputError('The body starts like gzip but is not valid gzip');
  }
}

/**
 * True when no string in the body can hold a control character: JSON strings cannot hold a raw
 * one, so without an escape sequence or DEL none can (http/json-body.ts makes the same judgement).
 * Bytes of UTF-8's multi-byte characters are all above 0x7f, so the bytes tell.
 */
export function isPlainText(body: Buffer): boolean {
  return !body.includes(0x5c) && !body.includes(0x7f);
}

/** One record per array element or per line; `undefined` for a line that is not JSON. */
export function bodyRecords(body: Buffer): unknown[] {
  // Small bodies are quicker parsed whole: 50 Vercel entries (35 KiB) took 0.86 of the time.
  if (body.length <= wholeBodyBytes) return textRecords(body.toString('utf8'));
  const start = firstNonWhitespace(body);
  if (start === body.length) return [];
  // A body that starts with a character beyond ASCII (a byte-order mark, say) is neither shape;
  // it gets the same answer as ever from the text.
  if ((body[start] as number) >= 0x80) return textRecords(body.toString('utf8'));
  if (body[start] === openBracket) return arrayElements(body, start) ?? wholeArray(body.toString('utf8'));
  return jsonLines(body);
}

/** Well below V8's 128 KiB, even for text of characters beyond Latin-1 (two bytes each in V8). */
const wholeBodyBytes = 48 * 1024;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const newline = 0x0a;

/** ASCII bytes that JavaScript's `\s` matches: tab, line feed, vertical tab, form feed, CR, space. */
function isWhitespaceByte(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

function firstNonWhitespace(body: Buffer): number {
  let index = 0;
  while (index < body.length && isWhitespaceByte(body[index] as number)) index += 1;
  return index;
}

function jsonLines(body: Buffer): unknown[] {
  const records: unknown[] = [];
  // Every byte of a multi-byte UTF-8 character is above 0x7f, so no line break is inside one.
  for (let start = 0; start < body.length; ) {
    let end = body.indexOf(newline, start);
    if (end === -1) end = body.length;
    const line = body.toString('utf8', start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    const record = parsed(line);
    records.push(record === notJson ? undefined : record);
  }
  return linesOrRefused(records);
}

/**
 * The elements of a JSON array, each parsed from its own slice, or `undefined` when they cannot be
 * told apart this way (the caller then parses the whole text). Objects are cut at every `},{`, the
 * way providers write their arrays; a cut inside a string or a nested array leaves a piece that is
 * no JSON value, and that piece is extended to the next cut. When every piece parses, the body is
 * `[` piece `,` piece ... `]` with each piece a whole JSON value, which is a valid array whose
 * elements are exactly those pieces (a JSON value's end is fixed by its start). Extending costs
 * a failed parse: once the failures have read as many bytes as the body, the whole text is parsed.
 */
function arrayElements(body: Buffer, open: number): unknown[] | undefined {
  let close = body.length - 1;
  while (close > open && isWhitespaceByte(body[close] as number)) close -= 1;
  if (close === open || body[close] !== closeBracket) return undefined;
  let cut = body.indexOf(separator, open);
  if (cut === -1 || cut > close) return undefined;
  const elements: unknown[] = [];
  let failedBytes = 0;
  let start = open + 1;
  for (;;) {
    const end = cut === -1 || cut > close ? close : cut + 1;
    const element = parsed(body.toString('utf8', start, end));
    if (element !== notJson) {
      elements.push(element);
      if (end === close) return elements;
      start = cut + 2;
    } else {
      failedBytes += end - start;
      if (end === close || failedBytes > body.length) return undefined;
    }
    cut = body.indexOf(separator, cut + 1);
  }
}

const separator = Buffer.from('},{');
const notJson = Symbol('not JSON');

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return notJson;
  }
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
      const record = parsed(line);
      return record === notJson ? undefined : record;
    });
  return linesOrRefused(records);
}

function wholeArray(text: string): unknown[] {
  const records = parsed(text);
  if (records === notJson) throw new InvalidInputError('The body starts with [ but is not a JSON array');
  if (!Array.isArray(records)) throw new InvalidInputError('The body is not a JSON array');
  return records;
}

function linesOrRefused(records: unknown[]): unknown[] {
  if (records.length > 0 && records.every((record) => record === undefined)) {
    throw new InvalidInputError('The body is neither JSON lines nor a JSON array');
  }
  return records;
}
