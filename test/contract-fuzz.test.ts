// A contract fuzz test: walks /openapi.json and sends generated requests, valid and invalid, to
// every operation (fast-check, bounded in runs and time). Every answer must be below 500, carry a
// status the operation documents, and match that status's documented schema.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { buildTestApp } from './app.ts';
import { createTestDatabase } from './database.ts';
import { bearer, buildProjectWithKey } from './factories.ts';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
}

interface Operation {
  parameters?: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: unknown[];
}

const database = await createTestDatabase();
const app = await buildTestApp(database, { environment: { QUIRE_AGENT_RATE_LIMIT: '1000000' } });
const { project, key } = await buildProjectWithKey(database.pool, { scopes: ['read', 'write'] });
const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
  paths: Record<string, Record<string, Operation>>;
};
const ajv = new Ajv({ strict: false, allErrors: false });

/** Hostile text: control characters, lone surrogates, long strings, percent signs, prototypes. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    '\u0000',
    '%00',
    '0x10',
    '1e3',
    '-1',
    '__proto__',
    'constructor',
    '\ud800',
    'a'.repeat(300),
    '../../etc',
  ),
);

function valueFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => valueFor(option, depth)));
  const type = [schema.type ?? 'string'].flat()[0];
  switch (type) {
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 1000, 1_000_000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, depth + 1), {
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object': {
      if (depth > 3) return fc.constant({});
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {}))
        shape[name] = valueFor(property, depth + 1);
      return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((name) => name in shape) });
    }
    case 'null':
      return fc.constant(null);
    default:
      return fc.string({ minLength: 1, maxLength: Math.min(schema.maxLength ?? 30, 30) });
  }
}

/** Percent-encodes a path segment; a lone surrogate becomes bytes that are not UTF-8 (hostile on purpose). */
function encodePathSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

/** A request for an operation: mostly well-formed, sometimes with a hostile field or none at all. */
function requestFor(path: string, operation: Operation) {
  const parameters = operation.parameters ?? [];
  const field = (schema: Schema) =>
    fc.oneof({ weight: 3, arbitrary: valueFor(schema) }, { weight: 1, arbitrary: hostileText });
  const pathValues = fc.record(
    Object.fromEntries(
      parameters
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => [
          parameter.name,
          parameter.name === 'projectId'
            ? fc.oneof(
                { weight: 4, arbitrary: fc.constant(project.id) },
                { weight: 1, arbitrary: hostileText },
              )
            : field(parameter.schema),
        ]),
    ),
  );
  const queryValues = fc.record(
    Object.fromEntries(
      parameters
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => [parameter.name, field(parameter.schema)]),
    ),
    { requiredKeys: [] },
  );
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const body = bodySchema
    ? fc.oneof(
        { weight: 3, arbitrary: valueFor(bodySchema) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
      )
    : fc.constant(undefined);
  const authorised = fc.oneof(
    { weight: 5, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  );
  return fc
    .record({ pathValues, queryValues, body, authorised })
    .map(({ pathValues, queryValues, body, authorised }) => {
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodePathSegment(String(pathValues[name] ?? 'x')),
      );
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(queryValues))
        query.set(name, typeof value === 'string' ? value : JSON.stringify(value));
      const queryText = query.toString();
      return { url: queryText ? `${url}?${queryText}` : url, body, authorised };
    });
}

// Bounded: at most this many requests per operation, and 45 seconds in all. QUIRE_FUZZ_SEED
// replays a failing run (fast-check prints the seed and the shrunk counterexample).
const runsPerOperation = 100;
const deadline = Date.now() + 45_000;

test('every operation answers generated requests below 500, with a documented status and schema', {
  timeout: 120_000,
}, async () => {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );
  assert.ok(operations.length >= 10, `${operations.length} operations`);
  let sent = 0;
  for (const { path, method, operation } of operations) {
    await fc.assert(
      fc.asyncProperty(requestFor(path, operation), async (request) => {
        const response = await app.inject({
          method: method as 'GET',
          url: request.url,
          headers: {
            ...(request.authorised ? bearer(key) : {}),
            ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
        });
        sent += 1;
        const where = `${method} ${request.url} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
        assert.ok(response.statusCode < 500, where);
        const documented = operation.responses[String(response.statusCode)];
        assert.ok(documented, `undocumented status: ${where}`);
        const schema = documented.content?.['application/json']?.schema;
        if (schema && (response.headers['content-type'] ?? '').includes('application/json')) {
          const validate = ajv.compile(schema);
          assert.ok(validate(response.json()), `${where}\n${JSON.stringify(validate.errors)}`);
        }
      }),
      {
        numRuns: runsPerOperation,
        interruptAfterTimeLimit: Math.max(1000, deadline - Date.now()),
        seed: Number(process.env.QUIRE_FUZZ_SEED ?? Date.now() % 1_000_000),
      },
    );
  }
  assert.ok(sent >= operations.length * 5, `${sent} requests`);
});
