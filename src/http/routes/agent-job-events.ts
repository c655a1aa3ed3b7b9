/**
 * A job's step log: JSON pages, or with `Accept: text/event-stream` a live Server-Sent Events
 * stream that resumes after `Last-Event-ID`. Streams wake on the database's notification for the
 * job, and re-read after a reconnection, so nothing committed is ever skipped.
 */
import type { ServerResponse } from 'node:http';
import { Type } from '@fastify/type-provider-typebox';
import { jobEventsChannel, listJobEvents, presentJobEvent } from '../../agent-jobs/job-events.ts';
import type { App, RouteRegistrar } from '../app.ts';
import { bearerSecurity, errorResponses } from '../schemas.ts';
import { JobEventSchema, JobParameters } from './agent-job-schemas.ts';

const heartbeatMilliseconds = 15_000;

export const registerAgentJobEventRoutes: RouteRegistrar = (app, { jobs, database, notifier }) => {
  const openStreams = new Set<ServerResponse>();
  // Live streams never go idle; end them so that shutdown does not wait for clients to leave.
  app.addHook('preClose', async () => {
    for (const stream of openStreams) stream.end();
  });

  app.get(
    '/v2/agent/:projectId/job/:id/events',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['agent jobs'],
        summary: "The job's step log",
        description:
          'Messages, tool calls, validation, commits, pull request and status changes, oldest first. With `Accept: text/event-stream`, a live stream that resumes after `Last-Event-ID`.',
        security: bearerSecurity,
        params: JobParameters,
        querystring: Type.Object(
          {
            after: Type.Integer({ minimum: 0, default: 0, description: 'Return events after this id' }),
            limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
          },
          { additionalProperties: false },
        ),
        headers: Type.Object({ 'last-event-id': Type.Optional(Type.String({ pattern: '^\\d{1,18}$' })) }),
        response: {
          200: Type.Object({ events: Type.Array(JobEventSchema), hasMore: Type.Boolean() }),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const { projectId, id } = request.params;
      const job = await jobs.get(projectId, id);
      const after = Number(request.headers['last-event-id'] ?? request.query.after);
      if ((request.headers.accept ?? '').includes('text/event-stream')) {
        reply.hijack();
        await streamEvents(app, reply.raw, {
          jobId: job.id,
          after,
          requestId: request.id,
          openStreams,
          database,
          notifier,
        });
        return reply;
      }
      const events = await listJobEvents(database.pool, job.id, after, request.query.limit + 1);
      return {
        events: events.slice(0, request.query.limit).map(presentJobEvent),
        hasMore: events.length > request.query.limit,
      };
    },
  );
};

async function streamEvents(
  app: App,
  response: ServerResponse,
  options: {
    jobId: string;
    after: number;
    requestId: string;
    openStreams: Set<ServerResponse>;
    database: { pool: import('pg').Pool };
    notifier: import('../../db/notifier.ts').Notifier;
  },
): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': options.requestId,
  });
  options.openStreams.add(response);
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
          const events = await listJobEvents(options.database.pool, options.jobId, cursor, 500);
          for (const event of events) {
            if (closed) return;
            response.write(
              `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(presentJobEvent(event))}\n\n`,
            );
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

  const unsubscribe = await options.notifier.subscribe(jobEventsChannel, (jobId) => {
    if (jobId === options.jobId) void flush();
  });
  const stopReconnect = options.notifier.onReconnect(() => void flush());
  const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), heartbeatMilliseconds);
  response.on('close', () => {
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    stopReconnect();
    options.openStreams.delete(response);
  });
  await flush();
}
