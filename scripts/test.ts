// `npm test`: runs every test file (or those given as arguments) against a real PostgreSQL.
// TEST_DATABASE_URL names a server to use (CI: the machine's PostgreSQL); without it an embedded
// PostgreSQL is started in a temporary directory. A migrated template database is made once, and
// each test file clones it (test/database.ts), so files are isolated and run in parallel.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { acquireEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { migrate } from '../src/db/migrator.ts';
import { startQueue } from '../src/queue/queue.ts';

const patterns =
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'];

let embedded: EmbeddedPostgres | null = null;
let scratch: string | null = null;
let adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-test-'));
  await fs.chmod(scratch, 0o755);
  embedded = await acquireEmbeddedPostgres({ dataDirectory: path.join(scratch, 'data'), role: 'test' });
  adminUrl = embedded.connectionString;
}

const template = `quire_template_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${template}`);
await admin.query(`CREATE DATABASE ${template}`);
const templateUrl = new URL(adminUrl);
templateUrl.pathname = `/${template}`;
const templatePool = new pg.Pool({ connectionString: templateUrl.toString() });
await migrate(templatePool);
await templatePool.end();
// The queue's schema too, so that no test file pays for installing it.
const boss = await startQueue({
  connectionString: templateUrl.toString(),
  supervise: false,
  runExpirySeconds: 600,
});
await boss.stop({ graceful: false, close: true });

let status = 1;
try {
  const child = spawn(process.execPath, ['--test', '--test-concurrency=4', ...patterns], {
    stdio: 'inherit',
    env: { ...process.env, QUIRE_TEST_ADMIN_URL: adminUrl, QUIRE_TEST_TEMPLATE: template },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  status = await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
  await admin.end();
  await embedded?.release();
  if (scratch) await fs.rm(scratch, { recursive: true, force: true });
}
process.exit(status);
