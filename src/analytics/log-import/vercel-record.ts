/**
 * One Vercel log drain entry, as documented at https://vercel.com/docs/drains/reference/logs :
 * every entry has `id`, `source` (`build`, `edge`, `lambda`, `static`, `external`, `firewall`,
 * `redirect`), `timestamp` (ms) and, for entries about a request, `requestId` and a `proxy` object
 * (`timestamp`, `method`, `host`, `path` with query, `userAgent` as an array, `referer`,
 * `statusCode`, `clientIp`, `vercelId`, ...). One request can produce several entries (the edge's
 * and the function's runtime lines): only entries with `proxy` describe the request, and all of
 * them share its `requestId`, which is the request's identity, so it counts once.
 * The schema carries no other request header: no `Accept` (a Markdown fetch is recognised by its
 * `.md` path only) and no `Signature-*` (no Web Bot Auth); the client address and user agent are
 * what verification can use.
 */
import { firstString, idText, isObject, type JsonObject, readStatus, readTimestamp } from './json-fields.ts';
import type { LogLineResult } from './logged-request.ts';

export function isVercelRecord(record: JsonObject): boolean {
  return isObject(record.proxy) || ('deploymentId' in record && 'source' in record);
}

export function parseVercelRecord(record: JsonObject): LogLineResult {
  const proxy = record.proxy;
  if (!isObject(proxy) || record.source === 'build') {
    return { ok: false, reason: 'not a request entry (Vercel build or runtime log)' };
  }
  // A request's `proxy` may hold as little as its method and status (real static entries): the
  // entry's own `path` and `host` say the rest (https://vercel.com/docs/drains/reference/logs).
  const entryPath = firstString(record.path);
  const target =
    firstString(proxy.path) ??
    (entryPath === undefined || entryPath.startsWith('/') ? entryPath : `/${entryPath}`);
  if (target === undefined || target === '') return { ok: false, reason: 'no request path' };
  // The proxy's time is the request's: every entry of one request carries the same one.
  const occurredAt = readTimestamp(proxy.timestamp ?? record.timestamp);
  if (occurredAt === undefined) return { ok: false, reason: 'missing or invalid timestamp' };
  const status = readStatus(proxy.statusCode ?? record.statusCode);
  if (status === null) return { ok: false, reason: 'invalid status' };
  const requestId = idText(record.requestId) ?? idText(proxy.vercelId) ?? idText(record.id);
  return {
    ok: true,
    request: {
      method: (firstString(proxy.method) ?? 'GET').toUpperCase(),
      target,
      status,
      occurredAt,
      userAgent: firstString(proxy.userAgent),
      referrer: firstString(proxy.referer),
      accept: undefined,
      ip: firstString(proxy.clientIp),
      host: firstString(proxy.host) ?? firstString(record.host),
      requestId: requestId === undefined ? undefined : `vercel:${requestId}`,
    },
  };
}
