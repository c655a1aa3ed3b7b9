// Liveness: when the embedded postmaster dies and cannot be started again (here its data directory
// is made unreadable first, as a broken volume or a bad chown would), Quire keeps trying for
// QUIRE_EMBEDDED_RECOVERY_SECONDS, answering 503 with Retry-After, with /healthz still 200; then
// /healthz answers 503 so that the process supervisor restarts Quire.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { startQuireServer, temporaryDirectory } from './processes.ts';

const recoverySeconds = 3;

test('/healthz fails once the embedded postmaster could not be restarted in time', {
  timeout: 60_000,
}, async () => {
  const dataDirectory = path.join(await temporaryDirectory(), 'data');
  const pgData = path.join(dataDirectory, 'postgres');
  const server = await startQuireServer({
    QUIRE_DATA_DIR: dataDirectory,
    QUIRE_EMBEDDED_RECOVERY_SECONDS: String(recoverySeconds),
  });
  const key = /\b(quire_[A-Za-z0-9_-]{43})\b/.exec(server.output())?.[1] ?? '';
  const projectId = /with id (prj_[a-z0-9]+)/.exec(server.output())?.[1] ?? '';
  assert.ok(key && projectId, server.output());
  const project = () =>
    fetch(`${server.url}/v1/projects/${projectId}`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal((await project()).status, 200);
  assert.equal((await fetch(`${server.url}/healthz`)).status, 200);

  const pid = Number((await fs.readFile(path.join(pgData, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  await fs.chmod(pgData, 0o000);
  try {
    process.kill(pid, 'SIGKILL');
    const killedAt = Date.now();
    const liveness: { status: number; after: number }[] = [];
    let failed: Response | null = null;
    const outage: number[] = [];
    let missingRetryAfter = 0;
    while (failed === null && Date.now() - killedAt < (recoverySeconds + 15) * 1000) {
      const response = await fetch(`${server.url}/healthz`);
      liveness.push({ status: response.status, after: Date.now() - killedAt });
      if (response.status === 200) {
        await response.arrayBuffer();
        const api = await project();
        await api.arrayBuffer();
        outage.push(api.status);
        if (api.status === 503 && !api.headers.get('retry-after')) missingRetryAfter += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
      } else {
        failed = response;
      }
    }
    const report = `${JSON.stringify(liveness)}\n${server.output()}`;
    assert.ok(failed, `/healthz never failed: ${report}`);
    assert.equal(failed.status, 503, report);
    assert.deepEqual(await failed.json(), { error: 'The embedded PostgreSQL could not be restarted' });
    const failedAfter = liveness.at(-1)!.after;
    // Not before the deadline (counted from when the death was noticed), nor long after it.
    assert.ok(failedAfter >= recoverySeconds * 1000 - 100, `failed too early: ${report}`);
    assert.ok(failedAfter <= (recoverySeconds + 5) * 1000, `failed too late: ${report}`);
    assert.ok(
      liveness.filter((probe) => probe.status === 200).length >= 3,
      `alive while restarts were tried: ${report}`,
    );
    // Requests meanwhile: 503 with Retry-After (a request in flight at the kill may still succeed).
    assert.ok(outage.includes(503), JSON.stringify(outage));
    assert.deepEqual(
      outage.filter((status) => status !== 503 && status !== 200),
      [],
      JSON.stringify(outage),
    );
    assert.equal(missingRetryAfter, 0);
    const after = await project();
    assert.equal(after.status, 503);
    assert.ok(after.headers.get('retry-after'));
    assert.ok('error' in ((await after.json()) as object));
    assert.match(server.output(), /the embedded PostgreSQL could not be restarted/);
    assert.equal(server.child.exitCode, null, 'the process itself stays up for its supervisor to restart');
  } finally {
    // Readable again, for the cleanup that stops any PostgreSQL left and removes the directory.
    await fs.chmod(pgData, 0o700);
  }
  server.child.kill('SIGTERM');
  await server.exited;
});
