// Live job event streams: one read per committed event per process, however many streams follow
// the job; and limits per owner and per process. Real PostgreSQL, notifications and sockets.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import Fastify from 'fastify';
import { createTestDatabase } from '../../test/database.ts';
import { buildProject } from '../../test/factories.ts';
import { eventually } from '../../test/poll.ts';
import { createJobEventFeed } from '../agent-jobs/job-event-feed.ts';
import { appendJobEvent } from '../agent-jobs/job-events.ts';
import { insertQueuedJobs } from '../agent-jobs/job-store.ts';
import { createNotifier } from '../db/notifier.ts';
import { isQuireError } from '../errors.ts';
import { createJobEventStreams } from './job-event-stream.ts';

const database = await createTestDatabase();
const notifier = createNotifier(database.connectionString);
const feed = createJobEventFeed(database.pool, notifier);
const reads: string[] = [];
const countingFeed = {
  ...feed,
  list: (jobId: string, afterId: number, limit: number) => {
    reads.push(jobId);
    return feed.list(jobId, afterId, limit);
  },
};
const app = Fastify();
const streams = createJobEventStreams(app, countingFeed, { perOwner: 40, perProcess: 45 });
app.get<{ Params: { jobId: string; owner: string } }>('/:owner/:jobId', async (request, reply) => {
  let ticket: ReturnType<typeof streams.admit>;
  try {
    ticket = streams.admit(request.params.owner);
  } catch (error: unknown) {
    if (isQuireError(error)) return reply.code(429).send({ error: error.message });
    throw error;
  }
  reply.hijack();
  await streams.stream(reply.raw, { ticket, jobId: request.params.jobId, after: 0, requestId: 'test' });
  return reply;
});
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;
const controllers: AbortController[] = [];
after(async () => {
  for (const controller of controllers) controller.abort();
  await app.close();
  await notifier.close();
});

async function openStream(owner: string, jobId: string) {
  const controller = new AbortController();
  controllers.push(controller);
  const response = await fetch(`http://127.0.0.1:${port}/${owner}/${jobId}`, { signal: controller.signal });
  const state = { status: response.status, text: '' };
  if (response.status === 200) {
    const reader = response.body!.getReader();
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        state.text += new TextDecoder().decode(value);
      }
    })();
  }
  return {
    ...state,
    get text() {
      return state.text;
    },
    close: () => controller.abort(),
  };
}

test('one committed event is read once per process, however many streams follow the job', async () => {
  const project = await buildProject(database.pool);
  const [job] = await insertQueuedJobs(
    database.pool,
    [{ projectId: project.id, prompt: 'Go' }],
    'anthropic:x',
  );
  const jobId = job!.id;
  const followers: Awaited<ReturnType<typeof openStream>>[] = [];
  for (let index = 0; index < 30; index += 1) followers.push(await openStream('key:a', jobId));
  await appendJobEvent(database.pool, jobId, 'first', {});
  await eventually(async () => followers.every((stream) => stream.text.includes('event: first')), {
    message: 'every stream has caught up',
  });
  reads.length = 0;
  await appendJobEvent(database.pool, jobId, 'note', { text: 'hello' });
  await eventually(async () => followers.every((stream) => stream.text.includes('event: note')), {
    message: 'every stream has the event',
  });
  assert.equal(reads.filter((id) => id === jobId).length, 1, `${reads.length} reads`);
  for (const stream of followers) stream.close();
});

test('streams are limited per owner and per process (429), and a closed stream gives its place back', async () => {
  const project = await buildProject(database.pool);
  const [job] = await insertQueuedJobs(
    database.pool,
    [{ projectId: project.id, prompt: 'Go' }],
    'anthropic:x',
  );
  const mine: Awaited<ReturnType<typeof openStream>>[] = [];
  for (let index = 0; index < 40; index += 1) mine.push(await openStream('key:b', job!.id));
  assert.ok(mine.every((stream) => stream.status === 200));
  const overOwner = await openStream('key:b', job!.id);
  assert.equal(overOwner.status, 429);
  const others: Awaited<ReturnType<typeof openStream>>[] = [];
  for (let index = 0; index < 5; index += 1) others.push(await openStream(`key:c${index}`, job!.id));
  assert.ok(others.every((stream) => stream.status === 200));
  assert.equal((await openStream('key:d', job!.id)).status, 429, 'the process is full');
  mine[0]!.close();
  await eventually(async () => (await openStream('key:e', job!.id)).status === 200, {
    message: 'a place is free again',
  });
});
