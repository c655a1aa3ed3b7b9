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
 * So that one sender cannot hold it all, each holder (the project of the request's API key, or,
 * for a request without one, its client's address, an IPv6 client by its /64) holds at most a
 * quarter of the budget at once, and its further bodies wait in their own line first. Without that,
 * 26 connections that announce 5 MiB webhook deliveries (no key needed before the body) and stall
 * would keep every other body waiting for that minute.
 *
 *   installBodyMemory(app, createBodyMemory({ limitBytes, maximumWaitMilliseconds, busy }));
 */
import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { type ByteBudget, createByteBudget } from '../byte-budget.ts';
import type { App } from './app.ts';

/** The methods whose bodies Fastify reads. */
const bodyMethods: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The part of the budget one holder's bodies may hold at once. */
const holderShare = 0.25;

export interface BodyMemory {
  /** Bytes held now, by every holder. */
  readonly used: number;
  /**
   * Resolves once `bytes` fit both in `holder`'s share and in the whole budget; rejects with the
   * `busy` error when both waits together pass the maximum.
   */
  reserve(holder: string, bytes: number): Promise<{ release(): void }>;
}

export function createBodyMemory(options: Parameters<typeof createByteBudget>[0]): BodyMemory {
  const all = createByteBudget(options);
  const shareBytes = Math.floor(options.limitBytes * holderShare);
  // A holder's line lives while it holds or waits for anything.
  const holders = new Map<string, { budget: ByteBudget; users: number }>();

  return {
    get used() {
      return all.used;
    },
    async reserve(holder, bytes) {
      const deadline = performance.now() + options.maximumWaitMilliseconds;
      let line = holders.get(holder);
      if (line === undefined) {
        line = { budget: createByteBudget({ ...options, limitBytes: shareBytes }), users: 0 };
        holders.set(holder, line);
      }
      const own = line;
      own.users += 1;
      const leave = () => {
        own.users -= 1;
        if (own.users === 0) holders.delete(holder);
      };
      try {
        const mine = await own.budget.reserve(bytes);
        try {
          const shared = await all.reserve(bytes, Math.max(0, deadline - performance.now()));
          let released = false;
          return {
            release() {
              if (released) return;
              released = true;
              shared.release();
              mine.release();
              leave();
            },
          };
        } catch (error) {
          mine.release();
          throw error;
        }
      } catch (error) {
        leave();
        throw error;
      }
    },
  };
}

export function installBodyMemory(app: App, memory: BodyMemory): void {
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
    const reservation = await memory.reserve(holderOf(request), bytes);
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

/** Whose share a request's body counts against: its key's project, else its client's address. */
function holderOf(request: FastifyRequest): string {
  if (request.apiKey !== null) return `project ${request.apiKey.projectId}`;
  if (!ipaddr.isValid(request.ip)) return `address ${request.ip}`;
  // An IPv4 client seen through an IPv6 socket (`::ffff:192.0.2.1`) is that IPv4 client.
  const address = ipaddr.process(request.ip);
  if (address.kind() === 'ipv4') return `address ${address.toString()}`;
  // One IPv6 host commonly has a whole /64 to itself.
  return `address ${(address as ipaddr.IPv6).parts.slice(0, 4).join(':')}::/64`;
}
