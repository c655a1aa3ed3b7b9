import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from './ids.ts';

test('ids are the prefix and 20 base-36 characters, never repeated', () => {
  const ids = Array.from({ length: 20_000 }, () => newId('job'));
  for (const id of ids.slice(0, 100)) assert.match(id, /^job_[0-9a-z]{20}$/);
  assert.equal(new Set(ids).size, ids.length);
});

test('every character is equally likely (no modulo bias)', () => {
  const counts = new Map<string, number>();
  for (let index = 0; index < 50_000; index += 1) {
    for (const character of newId('x').slice(2)) counts.set(character, (counts.get(character) ?? 0) + 1);
  }
  assert.equal(counts.size, 36);
  const expected = (50_000 * 20) / 36;
  // A byte modulo 36 would make 0-3 about 14% likelier; chance alone stays within 1% or so.
  for (const [character, count] of counts) {
    assert.ok(
      Math.abs(count - expected) / expected < 0.04,
      `${character}: ${count} against ${expected.toFixed(0)}`,
    );
  }
});
