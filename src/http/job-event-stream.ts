/**
 * Live Server-Sent Events streams of a job's step log, for the API and the dashboard. Streams of
 * one job share a channel: a committed event wakes the channel once, which reads the new events
 * once per process and writes them to every stream that follows the job (2,000 streams on one job
 * cost one read per event, not 2,000). A channel re-reads after the notification connection comes
 * back, so nothing committed is ever skipped; a stream ends when the job is archived, and on
 * shutdown. Streams are limited per owner (an API key, a dashboard user) and per process.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { JobEventFeed } from '../agent-jobs/job-event-feed.ts';
import { type JobEvent, presentJobEvent } from '../agent-jobs/job-events.ts';
import { RateLimitedError } from '../errors.ts';

const heartbeatMilliseconds = 15_000;
const pageSize = 500;

export interface StreamLimits {
  /** Open streams of one owner (an API key, a dashboard user) in this process. */
  perOwner: number;
  /** Open streams in this process. */
  perProcess: number;
}

const defaultStreamLimits: StreamLimits = { perOwner: 20, perProcess: 1000 };

/** A place among the open streams, taken before the response is hijacked. */
export interface StreamTicket {
  release(): void;
}

export interface JobEventStreams {
  /** Takes a place for `owner`'s new stream, or throws a 429 when the owner or process is full. */
  admit(owner: string): StreamTicket;
  /** Writes the events after `after`, then each new one as it commits, until the client leaves. */
  stream(
    response: ServerResponse,
    options: {
      ticket: StreamTicket;
      jobId: string;
      after: number;
      requestId: string;
      /** The `data:` line of an event (one line); the API's job event JSON by default. */
      format?: (event: JobEvent) => string;
      /** Name each SSE event after its type (the API); false sends plain messages (the dashboard). */
      namedEvents?: boolean;
    },
  ): Promise<void>;
}

interface Follower {
  cursor: number;
  deliver(event: JobEvent): void;
  closed: boolean;
}

interface Channel {
  followers: Set<Follower>;
  reading: boolean;
  again: boolean;
}

export function createJobEventStreams(
  app: FastifyInstance,
  feed: JobEventFeed,
  limits: StreamLimits = defaultStreamLimits,
): JobEventStreams {
  const openStreams = new Set<ServerResponse>();
  const perOwner = new Map<string, number>();
  let open = 0;
  const channels = new Map<string, Channel>();
  // Live streams never go idle; end them so that shutdown does not wait for clients to leave.
  app.addHook('preClose', async () => {
    for (const stream of openStreams) stream.end();
  });

  /** Reads once from the slowest follower's cursor and hands each event to those behind it. */
  async function flush(jobId: string, channel: Channel): Promise<void> {
    if (channel.reading) {
      channel.again = true;
      return;
    }
    channel.reading = true;
    try {
      do {
        channel.again = false;
        for (;;) {
          const followers = [...channel.followers].filter((follower) => !follower.closed);
          if (followers.length === 0) return;
          const from = Math.min(...followers.map((follower) => follower.cursor));
          const events = await feed.list(jobId, from, pageSize);
          for (const event of events) {
            for (const follower of followers) {
              if (!follower.closed && event.id > follower.cursor) follower.deliver(event);
            }
          }
          if (events.length < pageSize) break;
        }
      } while (channel.again);
    } catch (error: unknown) {
      app.log.warn({ err: error, jobId }, 'event stream read failed');
    } finally {
      channel.reading = false;
    }
  }

  const subscription = feed.subscribe((jobId) => {
    const channel = channels.get(jobId);
    if (channel) void flush(jobId, channel);
  });
  const stopReconnect = feed.onReconnect(() => {
    for (const [jobId, channel] of channels) void flush(jobId, channel);
  });
  app.addHook('onClose', async () => {
    stopReconnect();
    (await subscription)();
  });

  return {
    admit(owner) {
      const mine = perOwner.get(owner) ?? 0;
      if (mine >= limits.perOwner) {
        throw new RateLimitedError(
          `Too many open event streams for this key (at most ${limits.perOwner})`,
          30,
        );
      }
      if (open >= limits.perProcess)
        throw new RateLimitedError('Too many open event streams; try again later', 30);
      perOwner.set(owner, mine + 1);
      open += 1;
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          open -= 1;
          const left = (perOwner.get(owner) ?? 1) - 1;
          if (left <= 0) perOwner.delete(owner);
          else perOwner.set(owner, left);
        },
      };
    },

    async stream(response, options) {
      const format = options.format ?? ((event: JobEvent) => JSON.stringify(presentJobEvent(event)));
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-request-id': options.requestId,
      });
      openStreams.add(response);
      await subscription;
      const follower: Follower = {
        cursor: options.after,
        closed: false,
        deliver(event) {
          const name = options.namedEvents === false ? '' : `event: ${event.type}\n`;
          response.write(`id: ${event.id}\n${name}data: ${format(event)}\n\n`);
          follower.cursor = event.id;
          if (event.type === 'status-change' && event.data.to === 'archived') response.end();
        },
      };
      let channel = channels.get(options.jobId);
      if (channel === undefined) {
        channel = { followers: new Set(), reading: false, again: false };
        channels.set(options.jobId, channel);
      }
      channel.followers.add(follower);
      const joined = channel;
      const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), heartbeatMilliseconds);
      response.on('close', () => {
        follower.closed = true;
        clearInterval(heartbeat);
        joined.followers.delete(follower);
        if (joined.followers.size === 0 && channels.get(options.jobId) === joined)
          channels.delete(options.jobId);
        openStreams.delete(response);
        options.ticket.release();
      });
      // A new follower may be behind the others: the channel reads from its cursor once.
      await flush(options.jobId, joined);
    },
  };
}
