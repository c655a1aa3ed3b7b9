import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import Fastify from 'fastify';
import { installErrorHandlers } from './error-handler.ts';
import { installJsonBodyParser, isPlainJsonBody, singleArrayBody } from './json-body.ts';

/** What Fastify's own JSON parser answers for `text`: the value, or that it refused it. */
function defaultParse(text: string): { value: unknown } | { refused: true } {
  const parse = Fastify().getDefaultJsonParser('error', 'error');
  let answer: { value: unknown } | { refused: true } = { refused: true };
  // biome-ignore lint/suspicious/noExplicitAny: the parser's request argument is unused
  parse({} as any, text, (error: Error | null, value?: unknown) => {
    answer = error === null ? { value } : { refused: true };
  });
  return answer;
}

const event = fc.record(
  {
    path: fc.oneof(fc.constant('/docs/page'), fc.string()),
    userAgent: fc.oneof(fc.constant('Mozilla/5.0 (X11; Linux x86_64)'), fc.string()),
    timestamp: fc.constant('2026-11-26T12:00:00.000Z'),
    headers: fc.dictionary(
      fc.constantFrom('accept', 'signature-agent', '__proto__', 'constructor'),
      fc.string(),
    ),
    tags: fc.array(fc.jsonValue(), { maxLength: 2 }),
  },
  { requiredKeys: ['path'] },
);
/** Batches past the size below which bodies are parsed whole. */
const batch = fc
  .array(event, { minLength: 1, maxLength: 20 })
  .map((events) => [...events, { path: `/${'x'.repeat(50 * 1024)}` }]);

describe('the JSON body parser', () => {
  it('reads a large batch element by element into exactly what the default parser gives', () => {
    fc.assert(
      fc.property(
        batch,
        fc.constantFrom('', ' ', '\n\t', '\f'),
        fc.constantFrom('events', 'items'),
        (events, space, key) => {
          const text = `${space}{${space}"${key}":${space}${JSON.stringify(events)}${space}}${space}`;
          const read = singleArrayBody(Buffer.from(text));
          const expected = defaultParse(text);
          if (read !== undefined) assert.deepEqual({ value: read }, expected);
          // Plain text of the shape, with no key the default parser refuses, takes this way.
          if (space !== '\f' && !/__proto__|constructor|\\|\u007f/.test(text))
            assert.notEqual(read, undefined);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('leaves every other body to the default parser, which refuses what it refuses', () => {
    const damaged = fc
      .tuple(batch, fc.nat(), fc.constantFrom('', '}', ',', '{', '"', ']', '[', ':', 'x'))
      .map(([events, at, insert]) => {
        const text = JSON.stringify({ events });
        const from = at % text.length;
        return text.slice(0, from) + insert + text.slice(from + 1);
      });
    const otherShapes = batch.map((events) => JSON.stringify({ events, more: 1 }));
    fc.assert(
      fc.property(fc.oneof(damaged, otherShapes), (text) => {
        const read = singleArrayBody(Buffer.from(text));
        if (read !== undefined) assert.deepEqual({ value: read }, defaultParse(text));
      }),
      { numRuns: 300 },
    );
    const large = JSON.stringify({ events: [{ path: `/${'x'.repeat(50 * 1024)}` }, { path: '/b' }] });
    assert.equal(singleArrayBody(Buffer.from(large.replace('/b', '/\\u0062'))), undefined);
    assert.equal(
      singleArrayBody(
        Buffer.concat([Buffer.from(large.slice(0, -3)), Buffer.from([0xff]), Buffer.from('"}]}')]),
      ),
      undefined,
    );
  });

  it('serves a large batch through a route as a plain body, and refuses invalid UTF-8 with a 400', async () => {
    const app = Fastify();
    installErrorHandlers(app);
    installJsonBodyParser(app);
    app.post('/echo', async (request) => ({ plain: isPlainJsonBody(request.body), body: request.body }));
    const events = [{ path: `/${'x'.repeat(50 * 1024)}` }, { path: '/b' }];
    const answer = await app.inject({ method: 'POST', url: '/echo', payload: { events } });
    assert.deepEqual(answer.json(), { plain: true, body: { events } });
    const invalid = Buffer.concat([
      Buffer.from(JSON.stringify({ events }).slice(0, -4)),
      Buffer.from([0xc3]),
      Buffer.from('"}]}'),
    ]);
    const refused = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: invalid,
    });
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(refused.json(), { error: 'Request body is not valid UTF-8' });
    await app.close();
  });
});
