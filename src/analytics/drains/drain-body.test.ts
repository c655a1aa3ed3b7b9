import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { createByteBudget } from '../../byte-budget.ts';
import { InvalidInputError, RateLimitedError } from '../../errors.ts';
import {
  bodyRecords,
  decompressBody,
  expectedBodyBytes,
  isPlainText,
  readBodyRecords,
} from './drain-body.ts';

/** The rules as they read on the decoded text: what bodyRecords must answer for any body. */
function recordsOfText(text: string): unknown[] {
  const start = text.search(/\S/);
  if (start === -1) return [];
  if (text[start] === '[') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new InvalidInputError('The body starts with [ but is not a JSON array');
    }
    if (!Array.isArray(parsed)) throw new InvalidInputError('The body is not a JSON array');
    return parsed;
  }
  const records = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return undefined;
      }
    });
  if (records.length > 0 && records.every((record) => record === undefined)) {
    throw new InvalidInputError('The body is neither JSON lines nor a JSON array');
  }
  return records;
}

function answer(read: () => unknown[]): { records: unknown[] } | { error: string } {
  try {
    return { records: read() };
  } catch (error: unknown) {
    assert.ok(error instanceof InvalidInputError);
    return { error: error.message };
  }
}

/** Whitespace that takes a body past the size below which bodies are parsed whole. */
const padding = ' '.repeat(48 * 1024);

/** `body` cut into pieces, as zlib hands out an inflated body: at `cuts`, anywhere in a character. */
function chunked(body: Buffer, cuts: readonly number[]): Buffer[] {
  const offsets = [...new Set(cuts.map((cut) => cut % (body.length + 1)))].sort((a, b) => a - b);
  return [0, ...offsets].map((offset, index) => body.subarray(offset, offsets[index] ?? body.length));
}

function assertSameAsText(text: string, cuts: readonly number[] = []) {
  for (const padded of [text, `${padding}${text}`, `${text}${padding}`]) {
    const body = Buffer.from(padded);
    const expected = answer(() => recordsOfText(body.toString('utf8')));
    assert.deepEqual(
      answer(() => bodyRecords([body])),
      expected,
      JSON.stringify(text),
    );
    assert.deepEqual(
      answer(() => bodyRecords(chunked(body, cuts))),
      expected,
      `${JSON.stringify(text)} cut at ${cuts}`,
    );
  }
}
const cuts = fc.array(fc.nat(), { maxLength: 4 });
/** Whitespace to JSON, and to JavaScript's `\s` only (form feed, vertical tab: JSON.parse refuses them). */
const space = fc.constantFrom('', ' ', '\n', '\r\n\t', '\f', '\v');

// Entries as providers write them, with the strings that could fool a reader that cuts arrays
// at `},{`: that very text, quotes, escapes, nested arrays of objects, non-ASCII text.
const trickyString = fc.oneof(
  fc.string(),
  fc.constantFrom('},{', '"},{"', '\\', '\\"},{\\"', '}, {', ']', '[{', 'é ü 日本 😀', '\u2028'),
);
const entry = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    trickyString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('object'), { maxLength: 3 }),
    tie('object'),
  ),
  object: fc.dictionary(trickyString, tie('value'), { maxKeys: 4 }),
})).object;

describe('drained bodies read record by record', () => {
  it('give every JSON array exactly its elements, however its strings and nesting look', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 5, arbitrary: entry }, { weight: 1, arbitrary: fc.jsonValue() }), {
          maxLength: 12,
        }),
        space,
        space,
        cuts,
        (records, before, after, at) => assertSameAsText(`${before}${JSON.stringify(records)}${after}`, at),
      ),
      { numRuns: 400 },
    );
  });

  it('answer damaged arrays and JSON lines as the whole text does: the same records or the same 400', () => {
    const damaged = fc
      .tuple(
        fc.array(entry, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('', '}', ',', '{', '"', ']', '\\', '\n', 'x'),
      )
      .map(([records, at, length, insert]) => {
        const text = JSON.stringify(records);
        const from = at % text.length;
        return text.slice(0, from) + insert + text.slice(from + (length % 4));
      });
    const lines = fc
      .array(
        fc.oneof(
          entry.map((record) => JSON.stringify(record)),
          fc.string(),
        ),
        { maxLength: 6 },
      )
      .map((items) => items.join('\n'));
    fc.assert(
      fc.property(fc.oneof(damaged, lines), cuts, (text, at) => assertSameAsText(text, at)),
      { numRuns: 600 },
    );
  });

  it('read the shapes the providers send', () => {
    const vercel = [
      { id: '1', requestId: 'a', proxy: { path: '/docs', userAgent: ['Mozilla/5.0'] } },
      { id: '2', requestId: 'a', message: 'rendered /docs},{"x":1}' },
    ];
    for (const space of ['', padding]) {
      assert.deepEqual(bodyRecords([Buffer.from(`${JSON.stringify(vercel)}${space}`)]), vercel);
      assert.deepEqual(bodyRecords([Buffer.from(`{"RayID":"1"}\r\n\n{"RayID":"2"}\nnot json\n${space}`)]), [
        { RayID: '1' },
        { RayID: '2' },
        undefined,
      ]);
    }
    for (const empty of ['', ' \n\t', '[]', ' [ ] ']) assertSameAsText(empty);
    for (const odd of [
      '\uFEFF[{"a":1},{"b":2}]',
      '\u00a0[{"a":1}]',
      '[1,2]',
      '[{"a":1},{"b":2}] x',
      '[{"a":1},{"b":2}',
      '{"a":1},{"b":2}]',
    ]) {
      assertSameAsText(odd);
    }
  });

  it('give up cutting a body whose strings are full of `},{` and parse it whole', () => {
    const records = [{ message: '},{'.repeat(20_000) }, { message: '"},{"'.repeat(5_000) }];
    assert.deepEqual(bodyRecords([Buffer.from(JSON.stringify(records))]), records);
  });

  it('inflate gzip into chunks that join to the body, and refuse what is not gzip', async () => {
    const text = `${Array.from({ length: 20_000 }, (_, index) => JSON.stringify({ RayID: index })).join('\n')}\n`;
    const chunks = await decompressBody(gzipSync(text));
    assert.ok(chunks.length > 1);
    assert.equal(Buffer.concat(chunks).toString('utf8'), text);
    assert.equal(bodyRecords(chunks).length, 20_000);
    await assert.rejects(decompressBody(gzipSync(text).subarray(0, 100)), InvalidInputError);
    const plain = Buffer.from('{"RayID":"1"}');
    assert.deepEqual(await decompressBody(plain), [plain]);
  });

  it('read a large body a slice at a time, refusing it only where the whole text would', () => {
    const elements = Array.from({ length: 5_000 }, (_, index) => ({ index }));
    const array = Buffer.from(JSON.stringify(elements));
    const lazily = readBodyRecords([array]);
    assert.equal(lazily.validAtEnd, true);
    assert.equal(Array.isArray(lazily.slices), false);
    const slices = [...lazily.slices];
    assert.deepEqual(
      slices.map((slice) => slice.length),
      [1000, 1000, 1000, 1000, 1000],
    );
    assert.deepEqual(slices.flat(), elements);
    // Damaged at its end: the elements before come out first, then the 400.
    const taken: unknown[] = [];
    const damaged = Buffer.from(`${array.toString('utf8').slice(0, -1)},{"index": oops}]`);
    assert.throws(() => {
      for (const slice of readBodyRecords([damaged]).slices) taken.push(...slice);
    }, InvalidInputError);
    assert.deepEqual(taken, elements);
    // JSON lines: every line that is no JSON is taken as undefined before the body is refused.
    const lines = readBodyRecords([Buffer.from('not json\n'.repeat(10_000))]);
    assert.equal(lines.validAtEnd, false);
    let undefinedLines = 0;
    assert.throws(() => {
      for (const slice of lines.slices) {
        for (const record of slice) assert.equal(record, undefined);
        undefinedLines += slice.length;
      }
    }, InvalidInputError);
    assert.equal(undefinedLines, 10_000);
  });

  it('reserve what the gzip trailer says, and grow the reservation when it says less', async () => {
    const lines = (from: number) =>
      `${Array.from({ length: 20_000 }, (_, index) => JSON.stringify({ RayID: from + index })).join('\n')}\n`;
    const single = gzipSync(lines(0));
    assert.equal(expectedBodyBytes(single), Buffer.byteLength(lines(0)));
    assert.equal(expectedBodyBytes(Buffer.from('[{"a":1}]')), 9);
    // Two gzip members one after the other: the trailer tells the last member's length only.
    const concatenated = Buffer.concat([gzipSync(lines(0)), gzipSync(lines(20_000))]);
    const budget = createByteBudget({
      limitBytes: 1024 * 1024,
      maximumWaitMilliseconds: 50,
      busy: () => new RateLimitedError('busy', 5),
    });
    const memory = await budget.reserve(expectedBodyBytes(concatenated));
    const chunks = await decompressBody(concatenated, memory);
    assert.equal(bodyRecords(chunks).length, 40_000);
    assert.equal(memory.bytes, Buffer.byteLength(lines(0)) + Buffer.byteLength(lines(20_000)));
    memory.release();
    // Growing waits for the budget that others hold, and gives up after the wait.
    const held = await budget.reserve(1024 * 1024 - 1000);
    const small = await budget.reserve(1000);
    await assert.rejects(decompressBody(single, small), RateLimitedError);
    small.release();
    held.release();
    assert.equal(budget.used, 0);
  });

  it('tell plain text from text with escapes or DEL', () => {
    assert.equal(isPlainText([Buffer.from('[{"a":"é"}]')]), true);
    assert.equal(isPlainText([Buffer.from('[{"a":"\\u0000"}]')]), false);
    assert.equal(isPlainText([Buffer.from('[{"a":"\u007f"}]')]), false);
    assert.equal(isPlainText([Buffer.from('[{"a":"'), Buffer.from('\\n"}]')]), false);
  });
});
