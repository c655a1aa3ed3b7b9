/** Small readers shared by the JSON log formats: tolerant of what providers send, never throwing. */
import { type SignalHeaderName, type SignalHeaders, signalHeaderNames } from '../ingestion/index.ts';
import { parseInstant } from '../reports/index.ts';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 3339 text, or a Unix time in seconds, milliseconds or nanoseconds (told apart by size). */
export function readTimestamp(value: unknown): number | undefined {
  if (typeof value === 'string') {
    if (/^\d+$/.test(value)) return readTimestamp(Number(value));
    const parsed = parseInstant(value);
    return parsed.ok ? parsed.epochMilliseconds : undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  if (value < 1e11) return Math.round(value * 1000);
  if (value < 1e14) return Math.round(value);
  if (value < 1e17) return Math.round(value / 1000);
  return Math.round(value / 1e6);
}

/** A string, or the first string of an array (Vercel sends `userAgent` as an array). */
export function firstString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

/** A non-empty string or number as text (ids are sometimes numbers). */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '' && value.length <= 256) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** An HTTP status as an integer; `null` when present but not one. */
export function readStatus(value: unknown): number | undefined | null {
  if (value === undefined || value === null) return undefined;
  const status = Number(value);
  return Number.isInteger(status) ? status : null;
}

const signalHeaders: ReadonlySet<string> = new Set(signalHeaderNames);

/**
 * The signal headers of a logged header map (Cloudflare's `RequestHeaders`), by lower-case name:
 * the batch endpoint's allow-list (request-signals.ts). Any other header a zone logs (cookies,
 * forwarding headers) is dropped here and never reaches the pipeline.
 */
export function readHeaders(value: unknown): SignalHeaders | undefined {
  if (!isObject(value)) return undefined;
  const headers: SignalHeaders = {};
  let count = 0;
  // Names first (no pair array per header, as `Object.entries` makes): a drain reads this for every record.
  for (const name of Object.keys(value)) {
    const lowerName = name.toLowerCase();
    if (!signalHeaders.has(lowerName)) continue;
    const headerText = firstString(value[name]);
    if (headerText === undefined) continue;
    headers[lowerName as SignalHeaderName] = headerText;
    count += 1;
  }
  return count === 0 ? undefined : headers;
}
