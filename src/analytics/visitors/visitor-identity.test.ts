import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { createTestDatabase } from '../../../test/database.ts';
import { createVisitorIdentity, hmacKey, hmacSha256 } from './visitor-identity.ts';

const database = await createTestDatabase();
const day = 86_400_000;
const today = Date.parse('2026-03-10T12:00:00Z');

async function storedSaltDays(): Promise<string[]> {
  const result = await database.pool.query<{ day: string }>(
    "SELECT to_char(day, 'YYYY-MM-DD') AS day FROM analytics_visitor_salts ORDER BY day",
  );
  return result.rows.map((row) => row.day);
}

describe('hmacSha256', () => {
  it('equals node:crypto HMAC-SHA-256 for any salt and message', () => {
    for (const message of ['', 'prj_a\x83.0.113.7\0Mozilla/5.0', 'ü\u{1F600}'.repeat(40)]) {
      const salt = randomBytes(32);
      assert.deepEqual(
        hmacSha256(hmacKey(salt), message),
        createHmac('sha256', salt).update(message).digest('hex'),
      );
    }
  });
});

describe('createVisitorIdentity', () => {
  it('gives one client one visitor per day and project, and none without an address', async () => {
    let now = today;
    const identity = createVisitorIdentity({ db: database.pool, now: () => now });
    const client = { address: '203.0.113.7', userAgent: 'Mozilla/5.0 Firefox' };
    const [morning, evening, otherAgent, otherAddress, noAddress] = await identity.visitorsOf('prj_a', [
      { occurredAt: today - 6 * 3_600_000, ...client },
      { occurredAt: today + 6 * 3_600_000, ...client },
      { occurredAt: today, address: client.address, userAgent: 'curl/8' },
      { occurredAt: today, address: '2001:db8::1', userAgent: client.userAgent },
      { occurredAt: today, userAgent: client.userAgent },
    ]);
    assert.equal(typeof morning, 'number');
    assert.equal(morning, evening);
    assert.notEqual(morning, otherAgent);
    assert.notEqual(morning, otherAddress);
    assert.equal(noAddress, undefined);
    const [otherProject] = await identity.visitorsOf('prj_b', [{ occurredAt: today, ...client }]);
    assert.notEqual(otherProject, morning);
    const [tomorrow] = await identity.visitorsOf('prj_a', [{ occurredAt: today + day, ...client }]);
    assert.notEqual(tomorrow, morning);

    // Another process (another identity on the same database) agrees while the salt is kept.
    const [elsewhere] = await createVisitorIdentity({ db: database.pool, now: () => now }).visitorsOf(
      'prj_a',
      [{ occurredAt: today, ...client }],
    );
    assert.equal(elsewhere, morning);
    // Remembered from the first batch, and still the keyed hash of the day's stored salt.
    const [again] = await identity.visitorsOf('prj_a', [{ occurredAt: today, ...client }]);
    const stored = await database.pool.query<{ salt: Buffer }>(
      "SELECT salt FROM analytics_visitor_salts WHERE day = '2026-03-10'",
    );
    const salt = stored.rows[0]?.salt as Buffer;
    const expected = createHmac('sha256', salt)
      .update(`prj_a\0${client.address}\0${client.userAgent}`)
      .digest()
      .readUInt32BE(0);
    assert.equal(again, expected);
    assert.deepEqual(await storedSaltDays(), ['2026-03-10', '2026-03-11']);

    // Two days on, the salt of 03-10 is deleted: the same client that day is no longer linkable.
    now = today + 2 * day;
    const [later] = await identity.visitorsOf('prj_a', [{ occurredAt: today + 2 * day, ...client }]);
    assert.equal(typeof later, 'number');
    assert.deepEqual(await storedSaltDays(), ['2026-03-11', '2026-03-12']);
    const [forgotten] = await identity.visitorsOf('prj_a', [{ occurredAt: today, ...client }]);
    assert.notEqual(forgotten, morning);
    now = today + 5 * day;
    assert.equal(await identity.forgetOldSalts(), 2);
    assert.deepEqual(await storedSaltDays(), []);
  });
});
