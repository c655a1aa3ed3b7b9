/**
 * Parses one line of a JSON-lines log export into a logged request. Understands
 *  - Cloudflare Logpush HTTP requests (`ClientRequestPath`, `EdgeResponseStatus`, `EdgeStartTimestamp`,
 *    `ClientRequestUserAgent`, ...; timestamps as RFC 3339 or Unix seconds, milliseconds or nanoseconds),
 *  - Vercel log drains (`proxy.path`, `proxy.statusCode`, `proxy.userAgent` as an array, `timestamp` in ms),
 *  - plain objects with the batch endpoint's own names (`path`, `timestamp`, `userAgent`, `status`, ...).
 */
import { isIP } from 'node:net';
import { parseInstant } from '../reports/index.ts';
import type { LoggedRequest, LogLineResult } from './logged-request.ts';

type JsonObject = Record<string, unknown>;

export function parseJsonLogLine(line: string): LogLineResult {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (!isObject(value)) return { ok: false, reason: 'not a JSON object' };
  const fields = readFields(value);
  if (fields === undefined) return { ok: false, reason: 'no request path' };
  const occurredAt = readTimestamp(fields.timestamp);
  if (occurredAt === undefined) return { ok: false, reason: 'missing or invalid timestamp' };
  const status = fields.status === undefined ? undefined : Number(fields.status);
  if (status !== undefined && !Number.isInteger(status)) return { ok: false, reason: 'invalid status' };
  const request: LoggedRequest = {
    method: typeof fields.method === 'string' ? fields.method.toUpperCase() : 'GET',
    target: fields.target,
    status,
    occurredAt,
    userAgent: firstString(fields.userAgent),
    referrer: firstString(fields.referrer),
    accept: firstString(fields.accept),
    address: typeof fields.address === 'string' && isIP(fields.address) !== 0 ? fields.address : undefined,
  };
  return { ok: true, request };
}

interface RawFields {
  target: string;
  method: unknown;
  status: unknown;
  timestamp: unknown;
  userAgent: unknown;
  referrer: unknown;
  accept: unknown;
  address: unknown;
}

function readFields(line: JsonObject): RawFields | undefined {
  if ('ClientRequestPath' in line || 'ClientRequestURI' in line) {
    const headers = isObject(line.RequestHeaders) ? line.RequestHeaders : {};
    return withTarget(line.ClientRequestURI ?? line.ClientRequestPath, {
      method: line.ClientRequestMethod,
      status: line.EdgeResponseStatus ?? line.OriginResponseStatus,
      timestamp: line.EdgeStartTimestamp ?? line.EdgeEndTimestamp,
      userAgent: line.ClientRequestUserAgent,
      referrer: line.ClientRequestReferer,
      accept: headers.accept ?? headers.Accept,
      // https://developers.cloudflare.com/logs/reference/log-fields/zone/http_requests/ (ClientIP)
      address: line.ClientIP,
    });
  }
  if (isObject(line.proxy)) {
    const proxy = line.proxy;
    return withTarget(proxy.path ?? line.path, {
      method: proxy.method,
      status: proxy.statusCode ?? line.statusCode,
      timestamp: proxy.timestamp ?? line.timestamp,
      userAgent: proxy.userAgent,
      referrer: proxy.referer,
      accept: proxy.accept,
      // https://vercel.com/docs/drains/reference/logs (proxy.clientIp)
      address: proxy.clientIp,
    });
  }
  return withTarget(line.path ?? line.url ?? line.requestPath, {
    method: line.method ?? line.requestMethod,
    status: line.status ?? line.statusCode ?? line.responseStatusCode,
    timestamp: line.timestamp ?? line.time,
    userAgent: line.userAgent ?? line.user_agent,
    referrer: line.referrer ?? line.referer,
    accept: line.accept,
    address: line.ip,
  });
}

function withTarget(target: unknown, rest: Omit<RawFields, 'target'>): RawFields | undefined {
  return typeof target === 'string' && target !== '' ? { target, ...rest } : undefined;
}

/** RFC 3339 text, or a Unix time in seconds, milliseconds or nanoseconds (told apart by size). */
function readTimestamp(value: unknown): number | undefined {
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

function firstString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
