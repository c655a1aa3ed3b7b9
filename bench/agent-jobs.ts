// Agent job API throughput and queue latency, on the embedded PostgreSQL (or DATABASE_URL).
//   npm run bench:jobs            (QUIRE_BENCH_SECONDS=10 for longer runs)
// Prints create-to-run-start latency through the queue (an API process and a worker process), then
// GET job and create requests/s of the API process alone, each beside a bare Fastify route measured
// in the same run (the ratio survives a noisy machine).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import type { AgentRunner } from '../src/agent-jobs/agent-runner.ts';
import { noUsage } from '../src/agent-jobs/run-usage.ts';
import { loadConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { startService } from '../src/main.ts';
import { createBenchProject } from './bench-project.ts';
import { runLoad } from './load.ts';

const seconds = Number(process.env.QUIRE_BENCH_SECONDS ?? 5);
const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-'));
await fs.chmod(scratch, 0o755);

// The run-start probe: the agent records when each run began, and returns at once.
const runStartedAt = new Map<string, number>();
const probe: AgentRunner = {
  async run(input) {
    runStartedAt.set(input.job.id, performance.now());
    return {
      history: [],
      branch: null,
      prLink: null,
      summary: '',
      usage: noUsage,
    };
  },
};

const config = loadConfig({
  ...process.env,
  QUIRE_DATA_DIR: path.join(scratch, 'data'),
  PORT: '0',
  QUIRE_MODEL: 'openai:bench',
  QUIRE_READ_RATE_LIMIT: '100000000',
  QUIRE_AGENT_RATE_LIMIT: '1000000',
  QUIRE_WORKER_CONCURRENCY: '4',
});
// The API on its own, as `quire serve --role api`; a worker process beside it for the latency phase.
const service = await startService({ ...config, role: 'api' });
const worker = await startService({ ...config, role: 'worker' }, { runner: probe });
const database = createDatabase({
  connectionString: (await readConnectionString()) ?? '',
  applicationName: 'bench',
});
const project = await createBenchProject(database.pool, 'bench', ['read', 'write'], '/srv/bench');
const headers = { authorization: `Bearer ${project.key}`, 'content-type': 'application/json' };

const bare = Fastify();
bare.get('/bare', async () => ({ id: 'job_x', status: 'completed' }));
bare.post('/bare', async () => ({ id: 'job_x', status: 'active' }));
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

async function readConnectionString(): Promise<string | null> {
  if (config.databaseUrl) return config.databaseUrl;
  const cluster = JSON.parse(await fs.readFile(path.join(config.dataDirectory, 'postgres.json'), 'utf8'));
  return `postgres://quire:${encodeURIComponent(cluster.password)}@127.0.0.1:${cluster.port}/quire`;
}

const job = await (
  await fetch(`${service.url}/v2/agent/${project.id}/job`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ prompt: 'x' }),
  })
).json();

// Create-to-run-start: one job at a time, so queueing behind other jobs does not count.
const startLatencies: number[] = [];
for (let index = 0; index < 50; index += 1) {
  const started = performance.now();
  const response = await fetch(`${service.url}/v2/agent/${project.id}/job`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ prompt: `latency ${index}` }),
  });
  const { id } = await response.json();
  while (!runStartedAt.has(id)) await new Promise((resolve) => setTimeout(resolve, 1));
  startLatencies.push(runStartedAt.get(id)! - started);
}
const sorted = [...startLatencies].sort((a, b) => a - b);
const percentile = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

console.log(
  `Agent jobs benchmark (${seconds} s per measurement, 50 connections, ${os.cpus().length} cores, Node ${process.version})`,
);
console.log(
  `create-to-run-start (50 jobs, one at a time): p50 ${percentile(50).toFixed(1)} ms, p95 ${percentile(95).toFixed(1)} ms`,
);

await worker.close();

const bareGet = await runLoad({ url: `${bareUrl}/bare`, durationSeconds: seconds });
const getJob = await runLoad({
  url: `${service.url}/v2/agent/${project.id}/job/${job.id}`,
  headers,
  durationSeconds: seconds,
});
const barePost = await runLoad({
  url: `${bareUrl}/bare`,
  method: 'POST',
  headers,
  body: '{"prompt":"x"}',
  durationSeconds: seconds,
});
const create = await runLoad({
  url: `${service.url}/v2/agent/${project.id}/job`,
  method: 'POST',
  headers,
  body: JSON.stringify({ prompt: 'Document the --dry-run flag' }),
  durationSeconds: seconds,
});

const row = (name: string, value: number, baseline: number, errors: number) =>
  `${name.padEnd(34)} ${value.toFixed(0).padStart(8)} req/s   bare route ${baseline.toFixed(0).padStart(8)} req/s   ratio ${(value / baseline).toFixed(2)}${errors ? `   (${errors} non-2xx/errors)` : ''}`;
console.log(
  row(
    'GET /v2/agent/{p}/job/{id}',
    getJob.requestsPerSecond,
    bareGet.requestsPerSecond,
    getJob.non2xx + getJob.errors,
  ),
);
console.log(
  row(
    'POST /v2/agent/{p}/job',
    create.requestsPerSecond,
    barePost.requestsPerSecond,
    create.non2xx + create.errors,
  ),
);

await bare.close();
await database.close();
await service.close();
await fs.rm(scratch, { recursive: true, force: true });
