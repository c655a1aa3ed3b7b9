import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../test/database.ts';
import {
  booleanArrayLiteral,
  hexByteaArrayLiteral,
  integerArrayLiteral,
  textArrayLiteral,
} from './array-literal.ts';

const database = await createTestDatabase();

test('text array literals reach PostgreSQL exactly, hostile strings included', async () => {
  const values = [
    'plain',
    '',
    'NULL',
    null,
    'with "quotes" and \\backslashes\\',
    '{braces},commas, spaces ',
    '\\"',
    'üñíçødé ✓ 𝄞',
    "line\nbreak\ttab 'single'",
  ];
  const result = await database.pool.query<{ value: string | null; is_null: boolean }>(
    'SELECT value, value IS NULL AS is_null FROM unnest($1::text[]) WITH ORDINALITY AS t (value, n) ORDER BY n',
    [textArrayLiteral(values)],
  );
  assert.deepEqual(
    result.rows.map((row) => row.value),
    values,
  );
  assert.deepEqual(
    result.rows.map((row) => row.is_null),
    values.map((value) => value === null),
  );
});

test('integer and boolean array literals', async () => {
  const integers = [0, -1, 2 ** 31 - 1, Date.UTC(2026, 10, 21, 9, 30), -(2 ** 53) + 1];
  const result = await database.pool.query<{ integers: string[]; booleans: boolean[]; empty: string[] }>(
    'SELECT $1::bigint[]::text[] AS integers, $2::boolean[] AS booleans, $3::bigint[]::text[] AS empty',
    [integerArrayLiteral(integers), booleanArrayLiteral([true, false, true]), integerArrayLiteral([])],
  );
  assert.deepEqual(result.rows[0]?.integers, integers.map(String));
  assert.deepEqual(result.rows[0]?.booleans, [true, false, true]);
  assert.deepEqual(result.rows[0]?.empty, []);
});

test('bytea array literals from hex digits reach PostgreSQL as those bytes', async () => {
  const values = ['00ff', '5c22', '', '7b2c7d', '3f0f2a48ea9786cf65f141d389337833'];
  const result = await database.pool.query<{ bytes: Buffer[]; empty: Buffer[] }>(
    'SELECT $1::bytea[] AS bytes, $2::bytea[] AS empty',
    [hexByteaArrayLiteral(values), hexByteaArrayLiteral([])],
  );
  assert.deepEqual(
    result.rows[0]?.bytes.map((bytes) => bytes.toString('hex')),
    values,
  );
  assert.deepEqual(result.rows[0]?.empty, []);
});
