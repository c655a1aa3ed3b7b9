/**
 * Parses one line of the nginx/Apache "combined" log format (the "common" format, without referrer
 * and user agent, is accepted too):
 *
 *   203.0.113.9 - - [10/Oct/2026:13:55:36 -0700] "GET /docs/intro HTTP/1.1" 200 2326 "https://x/" "Mozilla/5.0 ..."
 *
 * Quoted fields may contain `\"` (Apache) or `\x22` (nginx) escapes. Garbage gives a reason, not an error.
 */
import { isIP } from 'node:net';
import type { LogLineResult } from './logged-request.ts';

const quoted = String.raw`"((?:[^"\\]|\\.)*)"`;
const linePattern = new RegExp(
  String.raw`^(\S+) \S+ (?:\S+|"[^"]*") \[([^\]]+)\] ${quoted} (\d{3}) (?:\d+|-)(?: ${quoted} ${quoted})?`,
);
const timePattern = /^(\d{2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;
const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export function parseCombinedLogLine(line: string): LogLineResult {
  const match = linePattern.exec(line);
  if (match === null) return { ok: false, reason: 'not in combined log format' };
  const occurredAt = parseLogTime(match[2] as string);
  if (occurredAt === undefined) return { ok: false, reason: 'invalid timestamp' };
  const requestLine = unescapeLogField(match[3] as string).split(' ');
  if (requestLine.length < 2 || requestLine.length > 3)
    return { ok: false, reason: 'malformed request line' };
  return {
    ok: true,
    request: {
      method: requestLine[0] as string,
      target: requestLine[1] as string,
      status: Number(match[4]),
      occurredAt,
      referrer: optionalField(match[5]),
      userAgent: match[6] === undefined ? undefined : unescapeLogField(match[6]),
      accept: undefined,
      // `$remote_addr` / `%h`: a host name where Apache resolves them (HostnameLookups), not an address.
      address: isIP(match[1] as string) === 0 ? undefined : match[1],
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

function optionalField(value: string | undefined): string | undefined {
  if (value === undefined || value === '' || value === '-') return undefined;
  return unescapeLogField(value);
}

/** Undoes the escaping nginx (`\xHH`) and Apache (`\"`, `\\`, `\xHH`) apply inside quoted fields. */
function unescapeLogField(value: string): string {
  if (!value.includes('\\')) return value;
  return value.replace(/\\x([0-9A-Fa-f]{2})|\\(.)/g, (_whole, hex: string | undefined, character: string) =>
    hex === undefined ? character : String.fromCharCode(Number.parseInt(hex, 16)),
  );
}
