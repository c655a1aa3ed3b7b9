import { Type } from '@fastify/type-provider-typebox';
import { presentAgentJob } from '../../agent-jobs/agent-job.ts';
import { fingerprintRequest, type IdempotentRequest } from '../../agent-jobs/idempotency.ts';
import { presentAutomation } from '../../automations/automation.ts';
import type { RouteRegistrar } from '../app.ts';
import { bearerSecurity, errorResponses, ProjectIdParameter } from '../schemas.ts';
import { AgentJobSchema, IdempotencyHeaders } from './agent-job-schemas.ts';
import {
  AutomationBody,
  AutomationHistorySchema,
  AutomationParameters,
  AutomationPatchBody,
  AutomationSchema,
} from './automation-schemas.ts';

const tags = ['automations'];

function idempotencyOf(
  request: { headers: Record<string, unknown>; url: string },
  projectId: string,
): IdempotentRequest | null {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return null;
  return { projectId, key, fingerprint: fingerprintRequest('POST', request.url, null) };
}

export const registerAutomationRoutes: RouteRegistrar = (app, { automations }) => {
  const base = '/v2/agent/:projectId/automations';

  app.get(
    base,
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List automations',
        description: "The project's automations, oldest first.",
        security: bearerSecurity,
        params: Type.Object({ projectId: ProjectIdParameter }),
        response: {
          200: Type.Object({ automations: Type.Array(AutomationSchema) }),
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async (request) => ({
      automations: (await automations.list(request.params.projectId)).map(presentAutomation),
    }),
  );

  app.post(
    base,
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Create an automation',
        description:
          'An instruction the agent carries out when the trigger fires: a change merged into a branch of a connected code repository, a cron schedule, or only on demand.',
        security: bearerSecurity,
        params: Type.Object({ projectId: ProjectIdParameter }),
        body: AutomationBody,
        response: { 201: AutomationSchema, ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const created = await automations.create(request.params.projectId, request.body);
      return reply.code(201).send(presentAutomation(created));
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Get an automation',
        security: bearerSecurity,
        params: AutomationParameters,
        response: { 200: AutomationSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => presentAutomation(await automations.get(request.params.projectId, request.params.id)),
  );

  app.patch(
    `${base}/:id`,
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Change an automation',
        description:
          'Changes the fields given and keeps the others; a trigger is replaced whole. A schedule changed or enabled again counts from now.',
        security: bearerSecurity,
        params: AutomationParameters,
        body: AutomationPatchBody,
        response: { 200: AutomationSchema, ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) =>
      presentAutomation(await automations.update(request.params.projectId, request.params.id, request.body)),
  );

  app.delete(
    `${base}/:id`,
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete an automation',
        description: 'Its jobs stay, with their trigger.',
        security: bearerSecurity,
        params: AutomationParameters,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await automations.remove(request.params.projectId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/:id/trigger`,
    {
      config: { scope: 'write', rateLimit: 'agent' },
      schema: {
        tags,
        summary: 'Fire an automation now',
        description:
          'Starts an agent job from the automation (or, in continue-pull-request mode, a follow-up of its open job) and returns it. A disabled automation answers 409.',
        security: bearerSecurity,
        params: AutomationParameters,
        headers: IdempotencyHeaders,
        response: { 201: AgentJobSchema, ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { projectId, id } = request.params;
      const response = await automations.trigger(projectId, id, idempotencyOf(request, projectId));
      return reply.code(201).send(response.body);
    },
  );

  app.get(
    `${base}/:id/jobs`,
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: "An automation's jobs",
        description: 'The jobs it started or continued, newest first (at most 50).',
        security: bearerSecurity,
        params: AutomationParameters,
        response: { 200: AutomationHistorySchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => ({
      jobs: (await automations.history(request.params.projectId, request.params.id)).map(presentAgentJob),
    }),
  );
};
