/**
 * Parses one line of the nginx/Apache "combined" log format (the "common" format, without referrer
 * and user agent, is accepted too), and Apache's `vhost_combined`, which puts `host:port` first:
 *
 *   203.0.113.9 - - [10/Oct/2026:13:55:36 -0700] "GET /docs/intro HTTP/1.1" 200 2326 "https://x/" "Mozilla/5.0 ..."
 *   docs.example.com:443 203.0.113.9 - - [10/Oct/2026:13:55:36 -0700] "GET /docs/intro HTTP/1.1" 200 2326 "-" "..."
 *
 * Formats: https://httpd.apache.org/docs/2.4/mod/mod_log_config.html (`%v:%p` for vhost_combined,
 * as Debian's apache2.conf defines it) and https://nginx.org/en/docs/http/ngx_http_log_module.html.
 * Quoted fields may hold escapes (below). Garbage gives a reason, not an error.
 */
import type { LogLineResult } from './logged-request.ts';

const quoted = String.raw`"((?:[^"\\]|\\.)*)"`;
const combinedBody = String.raw`(\S+) \S+ (?:\S+|"[^"]*") \[([^\]]+)\] ${quoted} (\d{3}) (?:\d+|-)(?: ${quoted} ${quoted})?`;
const combinedPattern = new RegExp(`^${combinedBody}`);
const vhostPattern = new RegExp(String.raw`^(\S+) ${combinedBody}`);
const timePattern = /^(\d{2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;
const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function parseCombinedLogLine(line: string): LogLineResult {
  const match = combinedPattern.exec(line);
  if (match === null) return { ok: false, reason: 'not in combined log format' };
  return fromFields(match.slice(1), undefined);
}

export function parseVhostCombinedLogLine(line: string): LogLineResult {
  const match = vhostPattern.exec(line);
  if (match === null) return { ok: false, reason: 'not in vhost_combined log format' };
  const virtualHost = match[1] as string;
  // `%v:%p`: the server name and port; the port says nothing about the page.
  const host = virtualHost.replace(/:\d+$/, '');
  return fromFields(match.slice(2), host === '-' ? undefined : host);
}

/** `fields`: address, time, request line, status, referrer?, user agent? */
function fromFields(fields: Array<string | undefined>, host: string | undefined): LogLineResult {
  const [ip, time, requestText, status, referrerText, userAgentText] = fields;
  const occurredAt = parseLogTime(time as string);
  if (occurredAt === undefined) return { ok: false, reason: 'invalid timestamp' };
  const requestLine = unescapeLogField(requestText as string);
  const referrer = optionalField(referrerText);
  const userAgent = userAgentText === undefined ? undefined : unescapeLogField(userAgentText);
  if (
    requestLine === undefined ||
    referrer === null ||
    (userAgent === undefined && userAgentText !== undefined)
  ) {
    return { ok: false, reason: 'escaped bytes that are not UTF-8' };
  }
  const parts = requestLine.split(' ');
  if (parts.length < 2 || parts.length > 3) return { ok: false, reason: 'malformed request line' };
  return {
    ok: true,
    request: {
      method: parts[0] as string,
      target: parts[1] as string,
      status: Number(status),
      occurredAt,
      referrer,
      userAgent,
      accept: undefined,
      ip,
      host,
    },
  };
}

/** `10/Oct/2026:13:55:36 -0700` to epoch milliseconds. */
export function parseLogTime(value: string): number | undefined {
  const match = timePattern.exec(value);
  if (match === null) return undefined;
  const month = months.indexOf((match[2] as string).toLowerCase());
  const [day, year, hour, minute, second] = [1, 3, 4, 5, 6].map((index) => Number(match[index])) as number[];
  const offset = (match[7] === '-' ? -1 : 1) * (Number(match[8]) * 60 + Number(match[9]));
  if (month === -1 || hour! > 23 || minute! > 59 || second! > 60 || offset === undefined) return undefined;
  const time = Date.UTC(year!, month, day!, hour!, minute!, Math.min(second!, 59));
  if (new Date(time).getUTCDate() !== day) return undefined;
  return time - offset * 60_000;
}

/** `undefined`: absent; `null`: escaped bytes that are not UTF-8. */
function optionalField(value: string | undefined): string | undefined | null {
  if (value === undefined || value === '' || value === '-') return undefined;
  return unescapeLogField(value) ?? null;
}

const namedEscapes: Record<string, number> = { b: 8, t: 9, n: 10, v: 11, f: 12, r: 13 };

/**
 * Undoes the escaping inside quoted fields: nginx writes `"`, `\` and bytes below 32 or above 126
 * as `\xHH` (so `é` arrives as `\xC3\xA9`: two bytes of one UTF-8 character, decoded together
 * here); Apache writes `\"`, `\\`, `\n`-style escapes and `\xhh`. `undefined` when the escaped
 * bytes are not UTF-8.
 */
function unescapeLogField(value: string): string | undefined {
  if (!value.includes('\\')) return value;
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  let plainStart = 0;
  const pattern = /\\x([0-9A-Fa-f]{2})|\\(.)/g;
  for (let match = pattern.exec(value); match !== null; match = pattern.exec(value)) {
    bytes.push(...encoder.encode(value.slice(plainStart, match.index)));
    const [, hex, character] = match;
    if (hex !== undefined) bytes.push(Number.parseInt(hex, 16));
    else
      bytes.push(
        ...encoder.encode(
          String.fromCharCode(namedEscapes[character as string] ?? (character as string).charCodeAt(0)),
        ),
      );
    plainStart = match.index + match[0].length;
  }
  bytes.push(...encoder.encode(value.slice(plainStart)));
  try {
    return utf8.decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}
