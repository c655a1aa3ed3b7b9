import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { type ReadLine, readLines } from './read-lines.ts';

async function collect(chunks: Array<string | Uint8Array>, maximumLineLength = 100): Promise<ReadLine[]> {
  const lines: ReadLine[] = [];
  for await (const line of readLines(Readable.from(chunks), { maximumLineLength })) lines.push(line);
  return lines;
}

describe('readLines', () => {
  it('splits across chunk boundaries and strips CR', async () => {
    assert.deepEqual(await collect(['ab', 'c\r\nde', 'f\n', '\nlast']), [
      { number: 1, text: 'abc' },
      { number: 2, text: 'def' },
      { number: 3, text: '' },
      { number: 4, text: 'last' },
    ]);
    assert.deepEqual(await collect(['one\n']), [{ number: 1, text: 'one' }]);
    assert.deepEqual(await collect([]), []);
  });

  it('decodes UTF-8 split between chunks', async () => {
    const bytes = new TextEncoder().encode('café\n😀\n');
    assert.deepEqual(await collect([bytes.slice(0, 4), bytes.slice(4, 8), bytes.slice(8)]), [
      { number: 1, text: 'café' },
      { number: 2, text: '😀' },
    ]);
  });

  it('skips overlong lines without holding them and keeps counting', async () => {
    const long = 'x'.repeat(50);
    assert.deepEqual(await collect(['ok\n', long, long, long, '\nafter\n', long, long, long], 100), [
      { number: 1, text: 'ok' },
      { number: 2, tooLong: true },
      { number: 3, text: 'after' },
      { number: 4, tooLong: true },
    ]);
    assert.deepEqual(await collect([`${'y'.repeat(101)}\nz`], 100), [
      { number: 1, tooLong: true },
      { number: 2, text: 'z' },
    ]);
  });
});
