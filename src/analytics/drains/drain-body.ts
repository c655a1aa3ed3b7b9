/**
 * A drained request body to JSON records: gzip (by its magic bytes, whatever the headers say:
 * Cloudflare Logpush always compresses) decompressed with a cap on the output, then one JSON
 * array (Vercel's and Netlify's `json` delivery) or JSON lines (`ndjson`, Cloudflare).
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

/** One record per array element or per line; `undefined` for a line that is not JSON. */
export function bodyRecords(text: string): unknown[] {
  const start = text.search(/\S/);
  if (start === -1) return [];
  if (text[start] === '[') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new InvalidInputError('The body starts with [ but is not a JSON array');
    }
    if (!Array.isArray(parsed)) throw new InvalidInputError('The body is not a JSON array');
    return parsed;
  }
  const records: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      records.push(undefined);
    }
  }
  if (records.length > 0 && records.every((record) => record === undefined)) {
    throw new InvalidInputError('The body is neither JSON lines nor a JSON array');
  }
  return records;
}
