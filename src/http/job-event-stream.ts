/**
 * Live Server-Sent Events streams of a job's step log, for the API and the dashboard. A stream
 * wakes on the database's notification for the job and re-reads after a reconnection, so nothing
 * committed is ever skipped; it ends when the job is archived, and on shutdown.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { JobEventFeed } from '../agent-jobs/job-event-feed.ts';
import { type JobEvent, presentJobEvent } from '../agent-jobs/job-events.ts';

const heartbeatMilliseconds = 15_000;

export interface JobEventStreams {
  /** Writes the events after `after`, then each new one as it commits, until the client leaves. */
  stream(
    response: ServerResponse,
    options: {
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

export function createJobEventStreams(app: FastifyInstance, feed: JobEventFeed): JobEventStreams {
  const openStreams = new Set<ServerResponse>();
  // Live streams never go idle; end them so that shutdown does not wait for clients to leave.
  app.addHook('preClose', async () => {
    for (const stream of openStreams) stream.end();
  });
  return {
    async stream(response, options) {
      const format = options.format ?? ((event: JobEvent) => JSON.stringify(presentJobEvent(event)));
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-request-id': options.requestId,
      });
      openStreams.add(response);
      let cursor = options.after;
      let reading = false;
      let again = false;
      let closed = false;

      const flush = async () => {
        if (reading) {
          again = true;
          return;
        }
        reading = true;
        try {
          do {
            again = false;
            for (;;) {
              const events = await feed.list(options.jobId, cursor, 500);
              for (const event of events) {
                if (closed) return;
                const name = options.namedEvents === false ? '' : `event: ${event.type}\n`;
                response.write(`id: ${event.id}\n${name}data: ${format(event)}\n\n`);
                cursor = event.id;
                if (event.type === 'status-change' && event.data.to === 'archived') response.end();
              }
              if (events.length < 500) break;
            }
          } while (again && !closed);
        } catch (error: unknown) {
          app.log.warn({ err: error, reqId: options.requestId }, 'event stream read failed');
        } finally {
          reading = false;
        }
      };

      const unsubscribe = await feed.subscribe((jobId) => {
        if (jobId === options.jobId) void flush();
      });
      const stopReconnect = feed.onReconnect(() => void flush());
      const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), heartbeatMilliseconds);
      response.on('close', () => {
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        stopReconnect();
        openStreams.delete(response);
      });
      await flush();
    },
  };
}
