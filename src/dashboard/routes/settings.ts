import type { FastifyInstance, FastifyReply } from 'fastify';
import type { JobService } from '../../agent-jobs/job-service.ts';
import { parseOrigin } from '../../analytics/settings/index.ts';
import { InvalidInputError, isQuireError } from '../../errors.ts';
import type { Project } from '../../projects/project.ts';
import {
  checkCodeHost,
  checkHttpUrl,
  checkModel,
  checkMonthlyBudget,
  checkProjectName,
  checkRef,
  checkRepository,
  checkTokenLimit,
} from '../../projects/project-fields.ts';
import type { ProjectService } from '../../projects/project-service.ts';
import type { WebhookService } from '../../webhooks/webhook-service.ts';
import { formField } from '../form.ts';
import type { PageContext } from '../pages/layout.ts';
import { renderSettingsPage, type SettingsPageState } from '../pages/settings-page.ts';
import { loadPageContext, projectPath } from '../project-context.ts';
import { sendPage } from '../send-page.ts';

type ProjectParameters = { Params: { projectId: string } };

export interface SettingsRouteOptions {
  projects: ProjectService;
  webhooks: WebhookService;
  jobs: Pick<JobService, 'monthlySpend'>;
  publicUrl: string;
  defaultModel: string | null;
  defaultAgentRateLimit: number;
}

/** Replaces the fields typed into the form, keeps the secrets left empty. */
function credentialSettings(body: unknown, current: Record<string, unknown>) {
  const field = (name: string) => formField(body, name).trim();
  const record = (value: unknown) =>
    typeof value === 'object' && value !== null ? { ...(value as Record<string, unknown>) } : {};
  const github = record(current.github);
  const gitlab = record(current.gitlab);
  const assign = (target: Record<string, unknown>, key: string, value: unknown) => {
    if (value === '' || value === undefined) delete target[key];
    else target[key] = value;
  };
  if (field('githubToken') !== '') github.token = field('githubToken');
  if (field('githubPrivateKey') !== '') github.privateKey = formField(body, 'githubPrivateKey').trim();
  assign(github, 'appId', field('githubAppId'));
  const installation = field('githubInstallationId');
  if (installation !== '' && !/^\d{1,18}$/.test(installation)) {
    throw new InvalidInputError('The installation id is a number');
  }
  assign(github, 'installationId', installation === '' ? '' : Number(installation));
  assign(github, 'apiBaseUrl', field('githubApiUrl') && checkHttpUrl(field('githubApiUrl'), 'The API URL'));
  if (field('gitlabToken') !== '') gitlab.token = field('gitlabToken');
  assign(gitlab, 'host', field('gitlabHost') && checkHttpUrl(field('gitlabHost'), 'The GitLab host'));
  return {
    github: Object.keys(github).length > 0 ? github : null,
    gitlab: Object.keys(gitlab).length > 0 ? gitlab : null,
  };
}

export function registerSettingsRoutes(app: FastifyInstance, options: SettingsRouteOptions): void {
  const { projects, webhooks } = options;
  const base = (projectId: string) => projectPath(projectId, '/settings');

  async function render(
    reply: FastifyReply,
    context: PageContext & { project: Project },
    extra: Partial<SettingsPageState> = {},
  ) {
    const webhook = await webhooks.find(context.project.id);
    const spend = await options.jobs.monthlySpend(context.project.id);
    return sendPage(
      reply,
      renderSettingsPage(context, {
        publicUrl: options.publicUrl,
        defaultModel: options.defaultModel,
        defaultAgentRateLimit: options.defaultAgentRateLimit,
        webhookUrl: webhook?.url ?? null,
        spentThisMonthUsd: spend.spentUsd,
        ...extra,
      }),
    );
  }

  /** A settings form: runs `change`, then redirects with a notice; invalid input re-renders with the problem. */
  function settingsForm(
    path: string,
    change: (project: Project, body: unknown) => Promise<string | { render: Partial<SettingsPageState> }>,
  ) {
    app.post<ProjectParameters>(`/projects/:projectId/settings/${path}`, async (request, reply) => {
      const context = await loadPageContext(
        projects,
        request.dashboardSession!,
        request.params.projectId,
        'settings',
      );
      try {
        const outcome = await change(context.project, request.body);
        if (typeof outcome === 'string')
          return reply.redirect(`${base(context.project.id)}?done=${outcome}`, 303);
        const fresh = await loadPageContext(
          projects,
          request.dashboardSession!,
          context.project.id,
          'settings',
        );
        return render(reply, fresh, outcome.render);
      } catch (error: unknown) {
        if (!isQuireError(error) || error.code !== 'invalid_input') throw error;
        return render(reply.code(400), context, { error: error.message });
      }
    });
  }

  app.get<ProjectParameters & { Querystring: { done?: string } }>(
    '/projects/:projectId/settings',
    async (request, reply) => {
      const context = await loadPageContext(
        projects,
        request.dashboardSession!,
        request.params.projectId,
        'settings',
      );
      return render(reply, context, request.query.done ? { done: request.query.done } : {});
    },
  );

  settingsForm('project', async (project, body) => {
    await projects.update(project.id, {
      name: checkProjectName(formField(body, 'name')),
      repository: checkRepository(formField(body, 'repository')),
      ref: checkRef(formField(body, 'ref')),
      codeHost: checkCodeHost(formField(body, 'codeHost')),
    });
    return 'project';
  });

  settingsForm('credentials', async (project, body) => {
    if (formField(body, 'remove') === '1') {
      await projects.updateSettings(project.id, { github: null, gitlab: null });
      return 'credentials-removed';
    }
    await projects.updateSettings(project.id, credentialSettings(body, project.settings));
    return 'credentials';
  });

  settingsForm('model', async (project, body) => {
    const limitText = formField(body, 'agentRateLimitPerHour').trim();
    if (limitText !== '' && (!/^\d{1,9}$/.test(limitText) || Number(limitText) < 1)) {
      throw new InvalidInputError('Agent runs per hour is a whole number of at least 1, or empty');
    }
    await projects.updateSettings(project.id, {
      model: checkModel(formField(body, 'model')) || null,
      agentRateLimitPerHour: limitText === '' ? null : Number(limitText),
    });
    return 'model';
  });

  settingsForm('budgets', async (project, body) => {
    await projects.updateSettings(project.id, {
      monthlyBudgetUsd: checkMonthlyBudget(formField(body, 'monthlyBudgetUsd')),
      maxTokensPerJob: checkTokenLimit(formField(body, 'maxTokensPerJob')),
    });
    return 'budgets';
  });

  settingsForm('webhook', async (project, body) => {
    const url = checkHttpUrl(formField(body, 'url'), 'The webhook URL');
    const saved = await webhooks.set(project.id, url);
    return { render: { webhookSecret: saved.secret, done: '' } };
  });

  settingsForm('webhook/remove', async (project) => {
    await webhooks.delete(project.id);
    return 'webhook-removed';
  });

  settingsForm('origins', async (project, body) => {
    const lines = formField(body, 'origins')
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
    const origins = [...new Set(lines.map(parseOrigin))];
    if (origins.length > 50) throw new InvalidInputError('At most 50 allowed origins');
    await projects.updateSettings(project.id, { analyticsAllowedOrigins: origins });
    return 'origins';
  });
}
