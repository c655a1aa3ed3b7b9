import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createTestDatabase } from '../../test/database.ts';
import { buildProject } from '../../test/factories.ts';
import { createCodeHostResolver } from '../code-hosts/code-host-for-project.ts';
import { createPostgresReviewStore } from '../code-hosts/local/review-store-postgres.ts';
import { loadConfig } from '../config.ts';
import { createProjectService } from '../projects/project-service.ts';
import { findProject, updateProjectSettings } from '../projects/project-store.ts';
import { createWebhookService } from '../webhooks/webhook-service.ts';
import { findWebhook, upsertWebhook } from '../webhooks/webhook-store.ts';
import {
  addKeyToFile,
  createSecretBox,
  dropOldKeysFromFile,
  isSealed,
  loadSecretKeys,
  resealAllSecrets,
} from './index.ts';

const database = await createTestDatabase();
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-secrets-'));
after(() => fs.rmSync(directory, { recursive: true, force: true }));

describe('the secret box', () => {
  const box = createSecretBox([randomBytes(32)]);

  it('seals with AES-256-GCM: a fresh IV each time, nothing of the value visible, tampering refused', () => {
    const first = box.seal('ghp_exampletoken');
    const second = box.seal('ghp_exampletoken');
    assert.notEqual(first, second);
    assert.ok(isSealed(first));
    assert.doesNotMatch(first, /ghp_|exampletoken/);
    assert.equal(box.open(first), 'ghp_exampletoken');
    const parts = first.split('.');
    const ciphertext = Buffer.from(parts[3]!, 'base64url');
    ciphertext[0]! ^= 1;
    parts[3] = ciphertext.toString('base64url');
    assert.throws(() => box.open(parts.join('.')), /does not open/);
    assert.throws(() => createSecretBox([randomBytes(32)]).open(first), /unknown key/);
  });

  it('reads its keys again after a rotation: the new key seals, every key read opens', () => {
    const first = randomBytes(32);
    const second = randomBytes(32);
    let keys = [first];
    const reloading = createSecretBox(keys, { reload: () => keys });
    const old = reloading.seal('ghp_before');
    keys = [second, first];
    assert.equal(reloading.needsSealing(old), false, 'nothing changes until it reads them');
    const secondId = reloading.refresh();
    assert.equal(reloading.keyId, secondId);
    assert.equal(reloading.seal('x').split('.')[1], secondId);
    assert.equal(reloading.open(old), 'ghp_before');
    assert.equal(reloading.needsSealing(old), true);

    // A value under a key it does not hold makes it read them too (another process rotated).
    const third = randomBytes(32);
    const sealedElsewhere = createSecretBox([third]).seal('ghp_elsewhere');
    keys = [third];
    const stale = createSecretBox([second], { reload: () => keys });
    assert.equal(stale.open(sealedElsewhere), 'ghp_elsewhere');
    assert.equal(stale.keyId, createSecretBox([third]).keyId);
    assert.equal(
      createSecretBox([second]).refresh(),
      createSecretBox([second]).keyId,
      'no reload: no change',
    );
  });

  it('opens legacy clear values as themselves and says they need sealing', () => {
    assert.equal(box.open('ghp_clear'), 'ghp_clear');
    assert.equal(box.needsSealing('ghp_clear'), true);
    assert.equal(box.needsSealing(box.seal('x')), false);
  });
});

describe('secret keys', () => {
  it('creates the key file in the data directory with mode 600, and reads the same key after', () => {
    const dataDirectory = path.join(directory, 'data');
    const config = loadConfig({ QUIRE_DATA_DIR: dataDirectory });
    const [key] = loadSecretKeys(config);
    const file = path.join(dataDirectory, 'secret.key');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(loadSecretKeys(config)[0], key);
    fs.chmodSync(file, 0o644);
    loadSecretKeys(config);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'a readable key file is tightened');
  });

  it('takes QUIRE_SECRET_KEY (hex or base64) and refuses a bad one', () => {
    const key = randomBytes(32);
    for (const text of [key.toString('hex'), key.toString('base64')]) {
      const keys = loadSecretKeys(loadConfig({ QUIRE_DATA_DIR: '/nonexistent', QUIRE_SECRET_KEY: text }));
      assert.deepEqual(keys, [key]);
    }
    assert.throws(() => loadConfig({ QUIRE_SECRET_KEY: 'short' }), /QUIRE_SECRET_KEY/);
  });
});

describe('secrets at rest', () => {
  const box = createSecretBox([randomBytes(32)]);
  const projects = createProjectService(database.pool, box);

  it('stores code-host tokens and App keys sealed; the code host opens them', async () => {
    const project = await buildProject(database.pool, {
      codeHost: 'gitlab',
      repository: 'https://gitlab.example.com/a/b',
    });
    await projects.updateSettings(project.id, {
      gitlab: { token: 'glpat-secret-value-1', host: 'https://gitlab.example.com' },
      github: { appId: '1', privateKey: '-----BEGIN PRIVATE KEY-----\nsecret-pem\n' },
    });
    const { rows } = await database.pool.query('SELECT settings::text AS text FROM projects WHERE id = $1', [
      project.id,
    ]);
    assert.doesNotMatch(rows[0].text, /glpat-secret-value-1|secret-pem/);
    assert.match(rows[0].text, /gitlab\.example\.com/, 'what is not secret stays readable');
    const stored = (await findProject(database.pool, project.id))!;
    const resolve = createCodeHostResolver({
      publicUrl: 'http://quire.test',
      reviews: createPostgresReviewStore(database.pool),
      secrets: box,
    });
    const credentials = await resolve(stored).gitCredentials();
    assert.equal(credentials?.password, 'glpat-secret-value-1');
    assert.throws(
      () =>
        createCodeHostResolver({
          publicUrl: 'http://quire.test',
          reviews: createPostgresReviewStore(database.pool),
          secrets: createSecretBox([randomBytes(32)]),
        })(stored),
      /unknown key/,
    );
  });

  it('stores webhook secrets sealed and shows the clear one once', async () => {
    const project = await buildProject(database.pool);
    const saved = await createWebhookService(database.pool, box).set(
      project.id,
      'https://hooks.example.com/q',
    );
    assert.match(saved.secret, /^whsec_/);
    const stored = (await findWebhook(database.pool, project.id))!;
    assert.ok(isSealed(stored.secret));
    assert.equal(box.open(stored.secret), saved.secret);
  });

  it('never lets a secret reach an error, even when the database refuses the statement', async () => {
    const project = await buildProject(database.pool);
    const error = await projects
      .updateSettings(project.id, { github: { token: 'ghp_mustnotleak123' }, note: 'nul \u0000 here' })
      .then(
        () => null,
        (failure: unknown) => failure,
      );
    assert.ok(error, 'PostgreSQL refuses \\u0000 in jsonb');
    const everything = JSON.stringify(error, Object.getOwnPropertyNames(error)) + String(error);
    assert.doesNotMatch(everything, /ghp_mustnotleak|mustnotleak/);
  });

  it('migrates clear values at start and reseals under a rotated key; twice changes nothing', async () => {
    const project = await buildProject(database.pool);
    await updateProjectSettings(database.pool, project.id, { github: { token: 'ghp_legacy_clear' } });
    await upsertWebhook(database.pool, project.id, 'https://hooks.example.com/legacy', 'whsec_legacy');
    const dataDirectory = path.join(directory, 'rotate');
    const config = loadConfig({ QUIRE_DATA_DIR: dataDirectory });
    const original = createSecretBox(loadSecretKeys(config));
    const first = await resealAllSecrets(database.pool, original);
    assert.ok(first.projects >= 1 && first.webhooks >= 1);
    const settingsText = async () =>
      (await database.pool.query('SELECT settings::text AS text FROM projects WHERE id = $1', [project.id]))
        .rows[0].text as string;
    assert.doesNotMatch(await settingsText(), /ghp_legacy_clear/);
    const again = await resealAllSecrets(database.pool, original);
    assert.deepEqual([again.projects, again.webhooks], [0, 0]);

    const rotated = createSecretBox(addKeyToFile(dataDirectory));
    assert.notEqual(rotated.keyId, original.keyId);
    await resealAllSecrets(database.pool, rotated);
    assert.match(await settingsText(), new RegExp(`qsec1\\.${rotated.keyId}\\.`));
    dropOldKeysFromFile(dataDirectory);
    const afterDrop = createSecretBox(loadSecretKeys(config));
    const stored = (await findProject(database.pool, project.id))!.settings.github as { token: string };
    assert.equal(afterDrop.open(stored.token), 'ghp_legacy_clear');
    assert.equal(afterDrop.open((await findWebhook(database.pool, project.id))!.secret), 'whsec_legacy');
  });
});
