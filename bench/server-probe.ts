// What the memory benchmarks ask of a `quire serve` child (`postAtOnce`): many requests at once,
// each answered or failed, never thrown; its peak resident memory; and how long it leaves a
// `/healthz` waiting meanwhile.
import fs from 'node:fs/promises';
import http from 'node:http';
import type pg from 'pg';
import type { QuireServer } from './quire-server.ts';

type Answer = { status: number; body: string } | { error: string };

function sendRequest(
  agent: http.Agent,
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<Answer> {
  return new Promise((resolve) => {
    const outgoing = http.request(url, { method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
      response.on('error', (error) => resolve({ error: error.message }));
    });
    outgoing.on('error', (error) => resolve({ error: error.message }));
    outgoing.end(body);
  });
}

/** The process's peak resident memory so far, in MB, from /proc (0 once the process is gone). */
async function peakMemory(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Until `stop()`: asks `/healthz` every 50 ms and samples the peak resident memory every 20 ms.
 * `stop()` resolves with the slowest answer, the unanswered asks and the peak.
 */
function watchServer(agent: http.Agent, url: string, pid: number) {
  let watching = true;
  let slowestHealth = 0;
  let unansweredHealth = 0;
  let peak = 0;
  const probe = (async () => {
    while (watching) {
      const asked = performance.now();
      const answer = await sendRequest(agent, `${url}/healthz`, 'GET', {});
      if ('status' in answer) slowestHealth = Math.max(slowestHealth, performance.now() - asked);
      else unansweredHealth += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  // Apart from the probe, which waits while the server does.
  const sampler = setInterval(async () => {
    peak = Math.max(peak, await peakMemory(pid));
  }, 20);
  return {
    async stop() {
      watching = false;
      await probe;
      clearInterval(sampler);
      return { slowestHealth, unansweredHealth, peak: Math.max(peak, await peakMemory(pid)) };
    },
  };
}

/** `3 × 202, 1 × 429`: how many answers of each kind. */
function countAnswers(answers: readonly Answer[]): string {
  const counts = new Map<string, number>();
  for (const answer of answers) {
    const label = 'error' in answer ? `no answer (${answer.error})` : `${answer.status}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts].map(([label, count]) => `${count} × ${label}`).join(', ');
}

/**
 * Posts every body at once to `urlPath` with the project's key, watching the server meanwhile, and
 * prints the answers, the seconds, the views stored, whether the server lived, its peak resident
 * memory and the slowest `/healthz` answer; `label` starts the first line.
 */
export async function postAtOnce(options: {
  server: QuireServer;
  pool: pg.Pool;
  project: { id: string; key: string };
  urlPath: string;
  bodies: readonly Buffer[];
  label: string;
}): Promise<void> {
  const { server, project } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.bodies.length + 1 });
  try {
    const watch = watchServer(agent, server.url, server.process.pid as number);
    const started = performance.now();
    const answers = await Promise.all(
      options.bodies.map((body) =>
        sendRequest(
          agent,
          `${server.url}${options.urlPath}`,
          'POST',
          { authorization: `Bearer ${project.key}`, 'content-type': 'application/json' },
          body,
        ),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const { slowestHealth, unansweredHealth, peak } = await watch.stop();
    const alive = server.process.exitCode === null && server.process.signalCode === null;
    const stored = await options.pool.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM analytics_page_views WHERE project_id = $1',
      [project.id],
    );
    console.log(
      `${options.label}${countAnswers(answers)}; ${seconds.toFixed(1)} s; ${stored.rows[0]?.count} views stored`,
    );
    console.log(
      `  server ${alive ? 'alive' : 'DIED'}; peak resident memory ${peak.toFixed(0)} MB; ` +
        `slowest /healthz answer meanwhile ${slowestHealth.toFixed(0)} ms` +
        (unansweredHealth > 0 ? ` (${unansweredHealth} unanswered)` : ''),
    );
  } finally {
    agent.destroy();
  }
}
