/**
 * One Netlify log drain record (https://docs.netlify.com/manage/monitoring/log-drains/, "general
 * HTTP endpoint", JSON or NDJSON). Only traffic log records (`log_type: "traffic"`) are requests:
 * `request_id`, `method`, `url`, `status_code`, `timestamp`, `client_ip`, `user_agent`,
 * `referrer` (the last two absent when the drain excludes personal data). Function, edge
 * function, deploy and WAF records are skipped. As with Vercel, no other request header is
 * logged (no `Accept`, no `Signature-*`): the `.md` path and the client address are the signals.
 */
import { firstString, idText, type JsonObject, readStatus, readTimestamp } from './json-fields.ts';
import type { LogLineResult } from './logged-request.ts';

export function isNetlifyRecord(record: JsonObject): boolean {
  return 'log_type' in record || ('request_id' in record && 'status_code' in record);
}

export function parseNetlifyRecord(record: JsonObject): LogLineResult {
  if (record.log_type !== undefined && record.log_type !== 'traffic') {
    return { ok: false, reason: 'not a traffic log entry (Netlify function, deploy or WAF log)' };
  }
  const target = firstString(record.url) ?? firstString(record.path);
  if (target === undefined || target === '') return { ok: false, reason: 'no request path' };
  const occurredAt = readTimestamp(record.timestamp);
  if (occurredAt === undefined) return { ok: false, reason: 'missing or invalid timestamp' };
  const status = readStatus(record.status_code);
  if (status === null) return { ok: false, reason: 'invalid status' };
  const requestId = idText(record.request_id);
  const host = URL.parse(target)?.hostname;
  return {
    ok: true,
    request: {
      method: (firstString(record.method) ?? 'GET').toUpperCase(),
      target,
      status,
      occurredAt,
      userAgent: firstString(record.user_agent),
      referrer: firstString(record.referrer) || undefined,
      accept: undefined,
      ip: firstString(record.client_ip),
      host: host || undefined,
      requestId: requestId === undefined ? undefined : `netlify:${requestId}`,
    },
  };
}
