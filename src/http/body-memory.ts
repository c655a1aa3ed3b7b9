/**
 * Request bodies share one budget of bytes (`QUIRE_REQUEST_MEMORY_MB`): a request that will send a
 * body reserves its size before a byte of it is read, and holds it until its response is done, so
 * the bodies held at once stay within the budget however many connections send them. Each route's
 * body limit bounds one request; nothing bounded them all: 800 batches of 3.9 MB posted at once
 * took a `quire serve` to 3.1 GB resident, and killed one with a 1 GiB heap (`node
 * bench/request-flood.ts`, docs/benchmarks.md).
 *
 * A request waits its turn, in order, while the budget is spent: its body stays in the kernel's
 * socket buffers meanwhile (Node reads a request's body only when asked). Past the wait it gets 429
 * with `Retry-After`, as the drains' own budget answers: the providers retry. Authentication and
 * the rate limits run first: a request they refuse reserves nothing.
 *
 * What a request announces is reserved, all of it at once, not each chunk as it arrives: by the
 * chunk, a flood of large bodies would each hold a part and wait for more, none finishing until
 * every one timed out. A body that stalls holds its share until the request timeout (app.ts).
 *
 *   installBodyMemory(app, createByteBudget({ limitBytes, maximumWaitMilliseconds, busy }));
 */
import type { FastifyRequest } from 'fastify';
import type { ByteBudget } from '../byte-budget.ts';
import type { App } from './app.ts';

/** The methods whose bodies Fastify reads. */
const bodyMethods: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function installBodyMemory(app: App, budget: ByteBudget): void {
  app.addHook('onRequest', async (request, reply) => {
    const bytes = expectedBodyBytes(request);
    if (bytes === 0) return;
    let closed = false;
    let release = () => {};
    // 'close' comes once the response is sent or the connection is gone, whichever is first; a
    // client that leaves while it waits gives back what it is granted later at once.
    reply.raw.once('close', () => {
      closed = true;
      release();
    });
    const reservation = await budget.reserve(bytes);
    release = () => reservation.release();
    if (closed) release();
  });
}

/**
 * What the request's body will hold: its `Content-Length`, or the route's body limit when it is
 * sent in chunks of unknown total. Nothing for a body over the limit (refused with 413 unread), a
 * malformed length (400) or no body at all.
 */
function expectedBodyBytes(request: FastifyRequest): number {
  if (!bodyMethods.has(request.method)) return 0;
  const limit = request.routeOptions.bodyLimit ?? 0;
  const length = request.headers['content-length'];
  if (length !== undefined) {
    const bytes = /^\d{1,15}$/.test(length) ? Number(length) : 0;
    return bytes <= limit ? bytes : 0;
  }
  return request.headers['transfer-encoding'] === undefined ? 0 : limit;
}
