/**
 * Parses the export's `dateFrom`/`dateTo` (DESIGN.md §1): `YYYY-MM-DD` is midnight UTC, an ISO 8601
 * date-time must carry `Z` or an offset (a time without one would depend on the server's zone).
 * Strict: real calendar dates only, no other ISO forms, nothing `Date.parse` would guess at.
 */

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

export type ParsedInstant = { ok: true; epochMilliseconds: number } | { ok: false; reason: string };

export function parseInstant(value: string): ParsedInstant {
  const canonical = canonicalInstant(value);
  if (canonical !== undefined) return { ok: true, epochMilliseconds: canonical };
  const date = datePattern.exec(value);
  if (date !== null) {
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
    if (!isCalendarDate(year, month, day)) return { ok: false, reason: 'is not a calendar date' };
    return { ok: true, epochMilliseconds: utc(year, month, day, 0, 0, 0, 0) };
  }
  const dateTime = dateTimePattern.exec(value);
  if (dateTime === null) {
    return { ok: false, reason: 'must be YYYY-MM-DD or an ISO 8601 date-time with Z or an offset' };
  }
  // Parsed field by field: this runs for every ingested event that carries a timestamp.
  const year = Number(dateTime[1]);
  const month = Number(dateTime[2]);
  const day = Number(dateTime[3]);
  const hour = Number(dateTime[4]);
  const minute = Number(dateTime[5]);
  const second = Number(dateTime[6] ?? 0);
  // The first three digits of the fraction, truncated (not `0.fff * 1000`, which floating point
  // can put a millisecond low).
  const millisecond = Number((dateTime[7] ?? '0').slice(0, 3).padEnd(3, '0'));
  if (!isCalendarDate(year, month, day)) return { ok: false, reason: 'is not a calendar date' };
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, reason: 'has a time of day out of range' };
  let offsetMinutes = 0;
  if (dateTime[8] === undefined) {
    const [offsetHour, offsetMinute] = [Number(dateTime[10]), Number(dateTime[11])];
    if (offsetHour > 23 || offsetMinute > 59) return { ok: false, reason: 'has an offset out of range' };
    offsetMinutes = (dateTime[9] === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute);
  }
  const epochMilliseconds = utc(year, month, day, hour, minute, second, millisecond) - offsetMinutes * 60_000;
  return { ok: true, epochMilliseconds };
}

/** Separator positions of `YYYY-MM-DDTHH:MM:SS.sssZ`, the form `Date#toISOString` writes. */
const canonicalSeparators: ReadonlyArray<[number, string]> = [
  [4, '-'],
  [7, '-'],
  [10, 'T'],
  [13, ':'],
  [16, ':'],
  [19, '.'],
  [23, 'Z'],
];

/** The decimal number at `value[start, start + length)`; NaN if a character is no ASCII digit. */
function digitsAt(value: string, start: number, length: number): number {
  let number = 0;
  for (let index = start; index < start + length; index += 1) {
    const digit = value.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    number = number * 10 + digit;
  }
  return number;
}

/**
 * The instant of a date-time in exactly the form `toISOString` writes, read without a regular
 * expression (ingestion parses one per event); `undefined` for anything else, which the general
 * parser then reads or refuses.
 */
function canonicalInstant(value: string): number | undefined {
  if (value.length !== 24) return undefined;
  for (const [index, separator] of canonicalSeparators) if (value[index] !== separator) return undefined;
  const [year, month, day, hour, minute, second, millisecond] = [
    digitsAt(value, 0, 4),
    digitsAt(value, 5, 2),
    digitsAt(value, 8, 2),
    digitsAt(value, 11, 2),
    digitsAt(value, 14, 2),
    digitsAt(value, 17, 2),
    digitsAt(value, 20, 3),
  ] as [number, number, number, number, number, number, number];
  if ([year, month, day, hour, minute, second, millisecond].some(Number.isNaN)) return undefined;
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  return utc(year, month, day, hour, minute, second, millisecond);
}

const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (daysInMonth[month - 1] as number));
}

/** Like Date.UTC with a 1-based month, but years 0-99 stay as written instead of meaning 1900-1999. */
function utc(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millisecond: number,
): number {
  if (year >= 100) return Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millisecond);
  return date.getTime();
}

export interface DateRange {
  /** Inclusive lower bound, epoch milliseconds; `undefined` for an open start. */
  from: number | undefined;
  /** Exclusive upper bound, epoch milliseconds; `undefined` for an open end. */
  to: number | undefined;
}

/** Problems are returned (one message each) so the caller can report all of them at once. */
export function parseDateRange(input: { dateFrom?: string; dateTo?: string }): {
  range: DateRange;
  problems: string[];
} {
  const problems: string[] = [];
  const bound = (name: 'dateFrom' | 'dateTo'): number | undefined => {
    const value = input[name];
    if (value === undefined) return undefined;
    const parsed = parseInstant(value);
    if (parsed.ok) return parsed.epochMilliseconds;
    problems.push(`${name} ${parsed.reason}`);
    return undefined;
  };
  const from = bound('dateFrom');
  const to = bound('dateTo');
  if (from !== undefined && to !== undefined && from > to) problems.push('dateFrom must not be after dateTo');
  return { range: { from, to }, problems };
}
