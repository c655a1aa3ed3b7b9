/**
 * One Cloudflare Logpush record of the `http_requests` dataset (one request per record), as
 * documented at https://developers.cloudflare.com/logs/reference/log-fields/zone/http_requests/ :
 * `ClientRequestMethod`, `ClientRequestURI` (path and query; `ClientRequestPath` without it),
 * `ClientRequestHost`, `ClientIP`, `ClientRequestUserAgent`, `ClientRequestReferer`,
 * `EdgeResponseStatus`, `EdgeStartTimestamp` (RFC 3339 or Unix s/ms/ns, per the job's
 * `timestamps` option), `RayID` (the request's id), `RequestHeaders` and `VerifiedBotCategory`.
 *
 * `RequestHeaders` holds the request headers the zone chose to log as custom fields, a map of
 * header name to value (https://developers.cloudflare.com/logs/logpush/logpush-job/custom-fields/):
 * with `accept`, `signature-agent`, `signature-input` and `signature` logged, a drained view is
 * classified and verified like a batch event carrying those headers (Markdown preference, Web Bot
 * Auth). `VerifiedBotCategory` is Cloudflare's own verification (verification/cloudflare-verified-bot.ts).
 * `BotScore` (Bot Management only) is not read: a score says how likely a request is automated, not
 * which agent sent it, and the categories here are decided by the agent.
 */
import {
  firstString,
  idText,
  type JsonObject,
  readHeaders,
  readStatus,
  readTimestamp,
} from './json-fields.ts';
import type { LogLineResult } from './logged-request.ts';

export function isCloudflareRecord(record: JsonObject): boolean {
  return 'ClientRequestURI' in record || 'ClientRequestPath' in record || 'RayID' in record;
}

export function parseCloudflareRecord(record: JsonObject): LogLineResult {
  const target = firstString(record.ClientRequestURI) || firstString(record.ClientRequestPath);
  if (target === undefined || target === '') return { ok: false, reason: 'no request path' };
  const occurredAt = readTimestamp(record.EdgeStartTimestamp ?? record.EdgeEndTimestamp);
  if (occurredAt === undefined) return { ok: false, reason: 'missing or invalid timestamp' };
  const status = readStatus(record.EdgeResponseStatus ?? record.OriginResponseStatus);
  if (status === null) return { ok: false, reason: 'invalid status' };
  const headers = readHeaders(record.RequestHeaders);
  const rayId = idText(record.RayID);
  const verifiedBotCategory = firstString(record.VerifiedBotCategory);
  return {
    ok: true,
    request: {
      method: (firstString(record.ClientRequestMethod) ?? 'GET').toUpperCase(),
      target,
      status,
      occurredAt,
      userAgent: firstString(record.ClientRequestUserAgent),
      referrer: firstString(record.ClientRequestReferer),
      accept: headers?.accept,
      ip: firstString(record.ClientIP),
      host: firstString(record.ClientRequestHost),
      requestId: rayId === undefined ? undefined : `cloudflare:${rayId}`,
      headers,
      verifiedBotCategory: verifiedBotCategory === '' ? undefined : verifiedBotCategory,
    },
  };
}
