/**
 * The drains on payloads other projects keep from the providers (test/fixtures/drain-payloads/,
 * each with its source, commit and license): posted through the real endpoint, into PostgreSQL, and
 * read back by the export. What each counts: a page view per request, nothing for assets, failed or
 * non-GET requests, build lines and records without a path.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { buildTestServices } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';

const database = await createTestDatabase();
const { app } = await buildTestServices(database, {
  // The payloads are from 2017 to 2024: kept, whatever their age.
  environment: { QUIRE_ANALYTICS_RETENTION_MONTHS: '1200' },
});
const fixture = (path: string) =>
  readFileSync(new URL(`../../../test/fixtures/drain-payloads/${path}`, import.meta.url));

async function drainFixture(provider: 'vercel' | 'cloudflare', path: string) {
  const { project, key } = await buildProjectWithKey(database.pool);
  const body = provider === 'cloudflare' ? gzipSync(fixture(path)) : fixture(path);
  const response = await app.inject({
    method: 'POST',
    url: `/v1/analytics/${project.id}/drains/${provider}`,
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: body,
  });
  assert.equal(response.statusCode, 200, response.body);
  const views = await app.inject({
    method: 'GET',
    url: `/v1/analytics/${project.id}/views?dateFrom=2010-01-01&dateTo=2030-01-01&limit=10`,
    headers: bearer(key),
  });
  assert.equal(views.statusCode, 200, views.body);
  return {
    counts: response.json() as { accepted: number; alreadyStored: number; skipped: number },
    views: views.json() as { totals: { total: number }; views: Array<{ path: string; total: number }> },
  };
}

describe('drains on real provider payloads', () => {
  it('Vercel: a captured static entry (a font) is no page view; the documented entry is one, pretty-printed or not', async () => {
    const font = await drainFixture('vercel', 'vercel/dacbd__vercel-log-drain__sample_5-static.json');
    assert.deepEqual(font.counts, { accepted: 0, alreadyStored: 0, skipped: 1 });
    assert.equal(font.views.totals.total, 0);

    const documented = await drainFixture('vercel', 'vercel/PostHog__posthog__vercel-log-drain.json');
    assert.deepEqual(documented.counts, { accepted: 1, alreadyStored: 0, skipped: 0 });
    assert.deepEqual(
      documented.views.views.map(({ path, total }) => ({ path, total })),
      [{ path: '/api/users', total: 1 }],
    );

    const lines = await drainFixture(
      'vercel',
      'vercel/elastic__opentelemetry-collector-components__logs.ndjson',
    );
    assert.deepEqual(lines.counts, { accepted: 1, alreadyStored: 0, skipped: 1 });

    // A POST answered 502, with every field Vercel sends: read, and no page view.
    const full = await drainFixture(
      'vercel',
      'vercel/elastic__opentelemetry-collector-components__logs-full.json',
    );
    assert.deepEqual(full.counts, { accepted: 0, alreadyStored: 0, skipped: 1 });
  });

  it('Cloudflare: a captured record with every field is a view; the documented three-field lines are skipped', async () => {
    const captured = await drainFixture(
      'cloudflare',
      'cloudflare/open-telemetry__opentelemetry-collector-contrib__cloudflarereceiver-all_fields.ndjson',
    );
    assert.deepEqual(captured.counts, { accepted: 1, alreadyStored: 0, skipped: 0 });
    assert.deepEqual(
      captured.views.views.map(({ path, total }) => ({ path, total })),
      [{ path: '/product/66VCHSJNUP', total: 1 }],
    );
    const documented = await drainFixture(
      'cloudflare',
      'cloudflare/cloudflare__cloudflare-docs__log-output-options-ndjson-example.ndjson',
    );
    assert.deepEqual(documented.counts, { accepted: 0, alreadyStored: 0, skipped: 3 });
  });
});
