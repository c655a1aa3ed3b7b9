/**
 * Parses one record of a JSON log (a line of JSON lines, or an element of a JSON array) into a
 * logged request. Understands Cloudflare Logpush HTTP requests, Vercel log drains, Netlify log
 * drains (each in its own file), and plain objects with the batch endpoint's own names (`path`,
 * `timestamp`, `userAgent`, `status`, ...).
 */
import { assertNever } from '../../assert-never.ts';
import { isCloudflareRecord, parseCloudflareRecord } from './cloudflare-record.ts';
import { firstString, isObject, type JsonObject, readStatus, readTimestamp } from './json-fields.ts';
import type { LogLineResult } from './logged-request.ts';
import { isNetlifyRecord, parseNetlifyRecord } from './netlify-record.ts';
import { isVercelRecord, parseVercelRecord } from './vercel-record.ts';

export function parseJsonLogLine(line: string): LogLineResult {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  return parseJsonLogRecord(value);
}

export function parseJsonLogRecord(value: unknown): LogLineResult {
  if (!isObject(value)) return { ok: false, reason: 'not a JSON object' };
  if (isCloudflareRecord(value)) return parseCloudflareRecord(value);
  if (isVercelRecord(value)) return parseVercelRecord(value);
  if (isNetlifyRecord(value)) return parseNetlifyRecord(value);
  return parsePlainRecord(value);
}

/** A record of a named provider's drain: read by that provider's parser only. */
export function parseDrainRecord(
  provider: 'vercel' | 'cloudflare' | 'netlify',
  value: unknown,
): LogLineResult {
  if (!isObject(value)) return { ok: false, reason: 'not a JSON object' };
  switch (provider) {
    case 'vercel':
      return parseVercelRecord(value);
    case 'cloudflare':
      return parseCloudflareRecord(value);
    case 'netlify':
      return parseNetlifyRecord(value);
    default:
      return assertNever(provider);
  }
}

/** The batch endpoint's field names, and a few common synonyms. */
function parsePlainRecord(record: JsonObject): LogLineResult {
  const target = firstString(record.path ?? record.url ?? record.requestPath);
  if (target === undefined || target === '') return { ok: false, reason: 'no request path' };
  const occurredAt = readTimestamp(record.timestamp ?? record.time);
  if (occurredAt === undefined) return { ok: false, reason: 'missing or invalid timestamp' };
  const status = readStatus(record.status ?? record.statusCode ?? record.responseStatusCode);
  if (status === null) return { ok: false, reason: 'invalid status' };
  const method = firstString(record.method ?? record.requestMethod);
  return {
    ok: true,
    request: {
      method: method === undefined ? 'GET' : method.toUpperCase(),
      target,
      status,
      occurredAt,
      userAgent: firstString(record.userAgent ?? record.user_agent),
      referrer: firstString(record.referrer ?? record.referer),
      accept: firstString(record.accept),
      ip: firstString(record.ip),
      host: firstString(record.host),
    },
  };
}
