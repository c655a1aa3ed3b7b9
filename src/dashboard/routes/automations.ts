/** The automations pages: list, create, enable or disable, run now, delete, and one automation's history. */
import type { FastifyInstance } from 'fastify';
import type { AutomationTrigger } from '../../automations/automation.ts';
import type { AutomationService } from '../../automations/automation-service.ts';
import { InvalidInputError, isQuireError } from '../../errors.ts';
import { checkTokenLimit } from '../../projects/project-fields.ts';
import type { ProjectService } from '../../projects/project-service.ts';
import { formField } from '../form.ts';
import { renderAutomationPage, renderAutomationsPage } from '../pages/automations-page.ts';
import { loadPageContext, projectPath } from '../project-context.ts';
import { sendPage } from '../send-page.ts';

type ProjectParameters = { Params: { projectId: string } };
type AutomationParameters = { Params: { projectId: string; automationId: string } };

export interface AutomationRouteDependencies {
  projects: ProjectService;
  automations: AutomationService;
  /** Counts a run started by hand against the project's agent rate limit (as the API does). */
  consumeAgentRateLimit(projectId: string): Promise<void>;
}

const formNames = [
  'name',
  'triggerType',
  'repository',
  'branch',
  'paths',
  'cron',
  'timeZone',
  'prompt',
  'mode',
  'maxTokensPerJob',
];

function triggerOf(field: (name: string) => string): AutomationTrigger {
  switch (field('triggerType')) {
    case 'merge': {
      const paths = field('paths')
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '');
      return { type: 'merge', repository: field('repository').trim(), branch: field('branch').trim(), paths };
    }
    case 'schedule':
      return { type: 'schedule', cron: field('cron').trim(), timeZone: field('timeZone').trim() };
    case 'manual':
      return { type: 'manual' };
    default:
      throw new InvalidInputError('The trigger is a merge, a schedule, or by hand');
  }
}

export function registerAutomationRoutes(
  app: FastifyInstance,
  dependencies: AutomationRouteDependencies,
): void {
  const { projects, automations } = dependencies;
  const base = (projectId: string) => projectPath(projectId, '/automations');

  app.get<ProjectParameters & { Querystring: { done?: string } }>(
    '/projects/:projectId/automations',
    async (request, reply) => {
      const context = await loadPageContext(
        projects,
        request.dashboardSession!,
        request.params.projectId,
        'automations',
      );
      const done = request.query.done;
      return sendPage(
        reply,
        renderAutomationsPage(context, {
          automations: await automations.list(context.project.id),
          ...(done ? { done } : {}),
        }),
      );
    },
  );

  app.post<ProjectParameters>('/projects/:projectId/automations', async (request, reply) => {
    const context = await loadPageContext(
      projects,
      request.dashboardSession!,
      request.params.projectId,
      'automations',
    );
    const field = (name: string) => formField(request.body, name);
    try {
      const mode =
        field('mode') === 'continue-pull-request' ? 'continue-pull-request' : 'pull-request-per-change';
      await automations.create(context.project.id, {
        name: field('name'),
        trigger: triggerOf(field),
        prompt: field('prompt').replace(/\r\n/g, '\n'),
        mode,
        limits: { maxTokensPerJob: checkTokenLimit(field('maxTokensPerJob')) },
      });
    } catch (error: unknown) {
      if (!isQuireError(error) || error.code !== 'invalid_input') throw error;
      // The form comes back as it was typed, with the problem.
      const form = Object.fromEntries(formNames.map((name) => [name, field(name)]));
      return sendPage(
        reply.code(400),
        renderAutomationsPage(context, {
          automations: await automations.list(context.project.id),
          error: error.message,
          form,
        }),
      );
    }
    return reply.redirect(`${base(context.project.id)}?done=created`, 303);
  });

  app.get<AutomationParameters>('/projects/:projectId/automations/:automationId', async (request, reply) => {
    const context = await loadPageContext(
      projects,
      request.dashboardSession!,
      request.params.projectId,
      'automations',
    );
    const automation = await automations.get(context.project.id, request.params.automationId);
    const jobs = await automations.history(context.project.id, automation.id, 50);
    return sendPage(reply, renderAutomationPage(context, { automation, jobs }));
  });

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post<AutomationParameters>(
      `/projects/:projectId/automations/:automationId/${action}`,
      async (request, reply) => {
        const { projectId, automationId } = request.params;
        await automations.update(projectId, automationId, { enabled });
        return reply.redirect(`${base(projectId)}?done=${action}d`, 303);
      },
    );
  }

  app.post<AutomationParameters>(
    '/projects/:projectId/automations/:automationId/trigger',
    async (request, reply) => {
      const { projectId, automationId } = request.params;
      await automations.get(projectId, automationId);
      await dependencies.consumeAgentRateLimit(projectId);
      const started = await automations.trigger(projectId, automationId, null);
      return reply.redirect(projectPath(projectId, `/jobs/${encodeURIComponent(started.body.id)}`), 303);
    },
  );

  app.post<AutomationParameters>(
    '/projects/:projectId/automations/:automationId/delete',
    async (request, reply) => {
      const { projectId, automationId } = request.params;
      await automations.remove(projectId, automationId);
      return reply.redirect(`${base(projectId)}?done=deleted`, 303);
    },
  );
}
