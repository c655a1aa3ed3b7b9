import { Type } from '@fastify/type-provider-typebox';
import { presentAgentJob } from '../../agent-jobs/agent-job.ts';
import { fingerprintRequest, type IdempotentRequest } from '../../agent-jobs/idempotency.ts';
import { decodeJobCursor, encodeJobCursor } from '../../agent-jobs/job-cursor.ts';
import type { RouteRegistrar } from '../app.ts';
import { bearerSecurity, errorResponses, ProjectIdParameter } from '../schemas.ts';
import {
  AgentJobSchema,
  IdempotencyHeaders,
  JobParameters,
  JobStatusSchema,
  PromptBody,
} from './agent-job-schemas.ts';

const tags = ['agent jobs'];

/** The request's `Idempotency-Key`, scoped to the project and tied to what was asked. */
function idempotencyOf(
  request: { headers: Record<string, unknown>; url: string; body: unknown },
  projectId: string,
): IdempotentRequest | null {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return null;
  return { projectId, key, fingerprint: fingerprintRequest('POST', request.url, request.body) };
}

export const registerAgentJobRoutes: RouteRegistrar = (app, { jobs }) => {
  app.post(
    '/v2/agent/:projectId/job',
    {
      config: { scope: 'write', rateLimit: 'agent' },
      schema: {
        tags,
        summary: 'Create an agent job',
        description:
          'Creates a job from an instruction. The agent runs in the background; poll the job until its status is completed, archived or failed.',
        security: bearerSecurity,
        params: Type.Object({ projectId: ProjectIdParameter }),
        headers: IdempotencyHeaders,
        body: PromptBody,
        response: { 201: AgentJobSchema, ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const response = await jobs.create(projectId, request.body.prompt, idempotencyOf(request, projectId));
      return reply.code(201).send(response.body);
    },
  );

  app.get(
    '/v2/agent/:projectId/job/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Get an agent job',
        description: 'Returns the job; used for polling. Available immediately after creation.',
        security: bearerSecurity,
        params: JobParameters,
        response: { 200: AgentJobSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => presentAgentJob(await jobs.get(request.params.projectId, request.params.id)),
  );

  app.post(
    '/v2/agent/:projectId/job/:id/message',
    {
      config: { scope: 'write', rateLimit: 'agent' },
      schema: {
        tags,
        summary: 'Send a follow-up message to an agent job',
        description:
          'Continues the job on the same branch and pull request. Processed asynchronously, after any run in progress, in order. An archived job answers 409.',
        security: bearerSecurity,
        params: JobParameters,
        headers: IdempotencyHeaders,
        body: PromptBody,
        response: { 200: AgentJobSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const { projectId, id } = request.params;
      const response = await jobs.message(
        projectId,
        id,
        request.body.prompt,
        idempotencyOf(request, projectId),
      );
      return reply.code(200).send(response.body);
    },
  );

  app.post(
    '/v2/agent/:projectId/job/:id/archive',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Archive an agent job',
        description:
          'Stops any running work and archives the job. Archiving an archived job changes nothing.',
        security: bearerSecurity,
        params: JobParameters,
        response: { 200: AgentJobSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => presentAgentJob(await jobs.archive(request.params.projectId, request.params.id)),
  );

  app.get(
    '/v2/agent/:projectId/jobs',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List agent jobs',
        description: 'Newest first. Pass `nextCursor` as `cursor` to get the next page.',
        security: bearerSecurity,
        params: Type.Object({ projectId: ProjectIdParameter }),
        querystring: Type.Object(
          {
            status: Type.Optional(JobStatusSchema),
            limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
            cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            jobs: Type.Array(AgentJobSchema),
            nextCursor: Type.Union([Type.String(), Type.Null()]),
          }),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => {
      const { status, limit, cursor } = request.query;
      const page = await jobs.list(request.params.projectId, {
        status: status ?? null,
        limit,
        after: cursor ? decodeJobCursor(cursor) : null,
      });
      return {
        jobs: page.jobs.map(presentAgentJob),
        nextCursor: page.next ? encodeJobCursor(page.next) : null,
      };
    },
  );
};
