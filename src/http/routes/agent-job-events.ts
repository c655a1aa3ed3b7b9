/**
 * A job's step log: JSON pages, or with `Accept: text/event-stream` a live Server-Sent Events
 * stream that resumes after `Last-Event-ID` (src/http/job-event-stream.ts).
 */
import { Type } from '@fastify/type-provider-typebox';
import { presentJobEvent } from '../../agent-jobs/job-events.ts';
import type { RouteRegistrar } from '../app.ts';
import { bearerSecurity, errorResponses } from '../schemas.ts';
import { JobEventSchema, JobParameters } from './agent-job-schemas.ts';

export const registerAgentJobEventRoutes: RouteRegistrar = (app, { jobs, jobEvents }) => {
  const streams = app.jobEventStreams;

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
        const ticket = streams.admit(`key:${request.apiKey!.id}`);
        reply.hijack();
        await streams.stream(reply.raw, { ticket, jobId: job.id, after, requestId: request.id });
        return reply;
      }
      const events = await jobEvents.list(job.id, after, request.query.limit + 1);
      return {
        events: events.slice(0, request.query.limit).map(presentJobEvent),
        hasMore: events.length > request.query.limit,
      };
    },
  );
};
