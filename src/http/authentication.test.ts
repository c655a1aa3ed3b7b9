import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { buildTestApp } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { bearer, buildProject, buildProjectWithKey } from '../../test/factories.ts';
import { eventually } from '../../test/poll.ts';
import { insertApiKey, revokeApiKey } from '../auth/api-key-store.ts';

const database = await createTestDatabase();
const app = await buildTestApp(database);
after(() => app.close());

const { project, key, keyId } = await buildProjectWithKey(database.pool);
const other = await buildProjectWithKey(database.pool);

function get(projectId: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url: `/v1/projects/${projectId}`, headers });
}

describe('authentication (401)', () => {
  test('a valid key for its project is accepted', async () => {
    const response = await get(project.id, bearer(key));
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().id, project.id);
  });

  test('a missing Authorization header is 401', async () => {
    const response = await get(project.id);
    assert.equal(response.statusCode, 401);
    assert.match(response.json().error, /Authorization/);
  });

  for (const header of [
    'Basic abc',
    'Bearer',
    'Bearer not-a-quire-key',
    `Token ${'x'.repeat(50)}`,
    `Bearer quire_${'a'.repeat(10)}`,
  ]) {
    test(`a malformed header "${header.slice(0, 20)}" is 401`, async () => {
      const response = await get(project.id, { authorization: header });
      assert.equal(response.statusCode, 401);
      assert.deepEqual(Object.keys(response.json()), ['error']);
    });
  }

  test('a well-formed but unknown key is 401', async () => {
    const response = await get(project.id, bearer(`quire_${'A'.repeat(43)}`));
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().error, 'Unknown API key');
  });

  test('a revoked key is 401 as soon as the revocation is committed and heard (milliseconds)', async () => {
    const { key: revokable, keyId: revokableId } = await buildProjectWithKey(database.pool);
    const owner = (await database.pool.query('SELECT project_id FROM api_keys WHERE id = $1', [revokableId]))
      .rows[0].project_id;
    // Twice: the second answer comes from the cache of verified keys.
    assert.equal((await get(owner, bearer(revokable))).statusCode, 200);
    assert.equal((await get(owner, bearer(revokable))).statusCode, 200);
    const revokedAt = Date.now();
    await revokeApiKey(database.pool, revokableId);
    const response = await eventually(
      async () => {
        const attempt = await get(owner, bearer(revokable));
        return attempt.statusCode === 401 && attempt;
      },
      { timeoutMilliseconds: 10_000 },
    );
    // Well within the 60 s a verified key stays cached (api-key-cache.ts): the notification evicted it.
    assert.ok(Date.now() - revokedAt < 10_000);
    assert.match(response.json().error, /revoked/);
  });

  test('an expired key is 401', async () => {
    const { secret } = await insertApiKey(database.pool, {
      projectId: project.id,
      name: 'old',
      scopes: ['read'],
      expiresAt: new Date(Date.now() - 1000),
    });
    const response = await get(project.id, bearer(secret));
    assert.equal(response.statusCode, 401);
    assert.match(response.json().error, /expired/);
  });
});

describe('authorisation (403)', () => {
  test("another project's key is 403", async () => {
    const response = await get(project.id, bearer(other.key));
    assert.equal(response.statusCode, 403);
  });

  test('a nonexistent project looks the same as a foreign one', async () => {
    const foreign = await get(other.project.id, bearer(key));
    const missing = await get('prj_doesnotexist0000000', bearer(key));
    assert.equal(missing.statusCode, 403);
    assert.deepEqual(missing.json(), foreign.json());
  });

  test('a key without the needed scope is 403', async () => {
    const { secret } = await insertApiKey(database.pool, {
      projectId: project.id,
      name: 'ingest',
      scopes: ['ingest'],
    });
    const response = await get(project.id, bearer(secret));
    assert.equal(response.statusCode, 403);
    assert.match(response.json().error, /"read" scope/);
  });

  test('a read-only key can read', async () => {
    const { secret } = await insertApiKey(database.pool, {
      projectId: project.id,
      name: 'reader',
      scopes: ['read'],
    });
    assert.equal((await get(project.id, bearer(secret))).statusCode, 200);
  });
});

test('using a key records when it was last used', async () => {
  const fresh = await buildProject(database.pool);
  const { key: created, secret } = await insertApiKey(database.pool, {
    projectId: fresh.id,
    name: 'n',
    scopes: ['read'],
  });
  assert.equal(created.lastUsedAt, null);
  await get(fresh.id, bearer(secret));
  // The bookkeeping write is not awaited by the request; give it a moment.
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const row = (await database.pool.query('SELECT last_used_at FROM api_keys WHERE id = $1', [created.id]))
      .rows[0];
    if (row.last_used_at !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail('last_used_at was never set');
});

test('keyId of the main key is stable (sanity)', () => {
  assert.match(keyId, /^key_/);
});

describe('per-key address allow-lists (403 from elsewhere)', () => {
  test('a key is refused from addresses outside its list, accepted from inside, with proxies believed only when trusted', async () => {
    const { secret } = await insertApiKey(database.pool, {
      projectId: project.id,
      name: 'office only',
      scopes: ['read'],
      allowedAddresses: ['203.0.113.0/24', '2001:db8::1'],
    });
    const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'GET',
        url: `/v1/projects/${project.id}`,
        remoteAddress,
        headers: { ...bearer(secret), ...headers },
      });
    assert.equal((await from('203.0.113.77')).statusCode, 200);
    assert.equal((await from('::ffff:203.0.113.77')).statusCode, 200);
    assert.equal((await from('2001:db8::1')).statusCode, 200);
    const outside = await from('198.51.100.7');
    assert.equal(outside.statusCode, 403);
    assert.deepEqual(outside.json(), { error: 'This API key may not be used from this address' });
    // Not a trusted proxy here: its X-Forwarded-For is ignored.
    assert.equal((await from('198.51.100.7', { 'x-forwarded-for': '203.0.113.5' })).statusCode, 403);
    assert.equal(
      (await get(project.id, bearer(key))).statusCode,
      200,
      'keys without a list work from anywhere',
    );

    const proxied = await buildTestApp(database, { environment: { QUIRE_TRUSTED_PROXIES: '10.0.0.0/8' } });
    const behindProxy = (forwarded: string) =>
      proxied.inject({
        method: 'GET',
        url: `/v1/projects/${project.id}`,
        remoteAddress: '10.0.0.2',
        headers: { ...bearer(secret), 'x-forwarded-for': forwarded },
      });
    assert.equal((await behindProxy('203.0.113.5')).statusCode, 200);
    assert.equal((await behindProxy('198.51.100.7')).statusCode, 403);
  });

  test('a malformed allow-list cannot be stored', async () => {
    await assert.rejects(
      insertApiKey(database.pool, {
        projectId: project.id,
        name: 'bad',
        scopes: ['read'],
        allowedAddresses: ['not-an-ip'],
      }),
    );
  });
});
