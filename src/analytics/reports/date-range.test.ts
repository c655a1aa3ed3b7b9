import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDateRange, parseInstant } from './date-range.ts';

function instant(value: string): string {
  const parsed = parseInstant(value);
  assert.ok(parsed.ok, `${value}: ${JSON.stringify(parsed)}`);
  return new Date(parsed.epochMilliseconds).toISOString();
}

describe('parseInstant', () => {
  it('reads YYYY-MM-DD as midnight UTC', () => {
    assert.equal(instant('2026-03-01'), '2026-03-01T00:00:00.000Z');
    assert.equal(instant('2024-02-29'), '2024-02-29T00:00:00.000Z');
  });

  it('reads date-times with Z or an offset', () => {
    assert.equal(instant('2026-03-01T10:20:30Z'), '2026-03-01T10:20:30.000Z');
    assert.equal(instant('2026-03-01T10:20Z'), '2026-03-01T10:20:00.000Z');
    assert.equal(instant('2026-03-01T10:20:30.123456Z'), '2026-03-01T10:20:30.123Z');
    assert.equal(instant('2026-03-01T00:30:00+02:00'), '2026-02-28T22:30:00.000Z');
    assert.equal(instant('2026-03-01T23:30:00-0530'), '2026-03-02T05:00:00.000Z');
    assert.equal(instant('2026-03-01t10:00:00z'), '2026-03-01T10:00:00.000Z');
  });

  it('keeps every millisecond of the fraction exactly', () => {
    for (let millisecond = 0; millisecond < 1000; millisecond += 1) {
      const value = `2026-03-01T10:20:30.${String(millisecond).padStart(3, '0')}Z`;
      assert.equal(instant(value), value);
    }
    assert.equal(instant('2026-03-01T10:20:30.5Z'), '2026-03-01T10:20:30.500Z');
    assert.equal(instant('2026-03-01T10:20:30.57Z'), '2026-03-01T10:20:30.570Z');
  });

  it('reads what toISOString writes, and refuses impossible values in that form', () => {
    for (let index = 0; index < 2000; index += 1) {
      const epochMilliseconds = Date.UTC(2000, 0, 1) + Math.floor(Math.random() * 100 * 365.25 * 86_400_000);
      assert.deepEqual(parseInstant(new Date(epochMilliseconds).toISOString()), {
        ok: true,
        epochMilliseconds,
      });
    }
    for (const value of [
      '2026-02-30T10:00:00.000Z',
      '2026-03-01T24:00:00.000Z',
      '2026-03-01T10:60:00.000Z',
      '2026-03-01T10:00:60.000Z',
      '2026-03-01T10:00:00.00xZ',
      '2026-03-01T10:00:00.000+',
      '2026-03-01X10:00:00.000Z',
    ]) {
      assert.equal(parseInstant(value).ok, false, value);
    }
  });

  it('knows leap years', () => {
    assert.equal(instant('2000-02-29T12:00:00Z'), '2000-02-29T12:00:00.000Z');
    assert.equal(parseInstant('1900-02-29T12:00:00Z').ok, false);
    assert.equal(parseInstant('2026-04-31T12:00:00Z').ok, false);
  });

  it('rejects anything else', () => {
    for (const value of [
      '',
      '2026-3-1',
      '2026-02-30',
      '2025-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-03-01T10:20:30',
      '2026-03-01 10:20:30Z',
      '2026-03-01T24:00:00Z',
      '2026-03-01T10:60:00Z',
      '2026-03-01T10:00:00+25:00',
      '2026-03-01T10:00:00.Z',
      'yesterday',
      '1700000000',
      '2026-03-01Z',
      ' 2026-03-01',
      '2026-03-01\n',
      '０２０２６-03-01',
    ]) {
      assert.equal(parseInstant(value).ok, false, JSON.stringify(value));
    }
  });

  it('keeps years before 100 as written', () => {
    assert.equal(instant('0099-01-01'), '0099-01-01T00:00:00.000Z');
    assert.equal(parseInstant('0000-01-01').ok, false);
  });
});

describe('parseDateRange', () => {
  it('allows open ends and an empty range', () => {
    assert.deepEqual(parseDateRange({}), { range: { from: undefined, to: undefined }, problems: [] });
    const same = parseDateRange({ dateFrom: '2026-03-01', dateTo: '2026-03-01T00:00:00Z' });
    assert.deepEqual(same.problems, []);
    assert.equal(same.range.from, same.range.to);
  });

  it('reports every problem, and from after to', () => {
    assert.deepEqual(parseDateRange({ dateFrom: 'x', dateTo: 'y' }).problems, [
      'dateFrom must be YYYY-MM-DD or an ISO 8601 date-time with Z or an offset',
      'dateTo must be YYYY-MM-DD or an ISO 8601 date-time with Z or an offset',
    ]);
    assert.deepEqual(parseDateRange({ dateFrom: '2026-03-02', dateTo: '2026-03-01' }).problems, [
      'dateFrom must not be after dateTo',
    ]);
  });
});
