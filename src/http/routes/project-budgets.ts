import { Type } from '@fastify/type-provider-typebox';
import { NotFoundError } from '../../errors.ts';
import type { RouteRegistrar } from '../app.ts';
import { bearerSecurity, errorResponses, ProjectIdParameter } from '../schemas.ts';

const nullableNumber = (options: Parameters<typeof Type.Number>[0]) =>
  Type.Union([Type.Number(options), Type.Null()]);

const BudgetsSchema = Type.Object(
  {
    monthlyBudgetUsd: nullableNumber({
      description:
        'Estimated model cost per calendar month (UTC) in US dollars; past it, new runs get 429 and runs under way stop as failed. Null: no limit',
    }),
    maxTokensPerJob: Type.Union([Type.Integer(), Type.Null()], {
      description:
        "Input plus output tokens one job may use, unless its automation's limits set their own. Null: no limit",
    }),
    spentThisMonthUsd: Type.Number({ description: "Estimated cost of this month's runs" }),
  },
  { description: "A project's budgets" },
);

const BudgetsPatchBody = Type.Object(
  {
    monthlyBudgetUsd: Type.Optional(
      Type.Union([Type.Number({ minimum: 0, maximum: 1_000_000_000, multipleOf: 0.01 }), Type.Null()]),
    ),
    maxTokensPerJob: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000_000_000 }), Type.Null()]),
    ),
  },
  { additionalProperties: false },
);

/** `GET|PATCH /v1/projects/{projectId}/budgets`: the cost limits of issue 16, beside the project. */
export const registerProjectBudgetRoutes: RouteRegistrar = (app, { projects, jobs }) => {
  const path = '/v1/projects/:projectId/budgets';
  const params = Type.Object({ projectId: ProjectIdParameter });

  async function present(projectId: string) {
    const project = await projects.find(projectId);
    if (project === null) throw new NotFoundError('Project not found');
    const spend = await jobs.monthlySpend(projectId);
    const limit = project.settings.maxTokensPerJob;
    return {
      monthlyBudgetUsd: spend.budgetUsd,
      maxTokensPerJob: typeof limit === 'number' ? limit : null,
      spentThisMonthUsd: spend.spentUsd,
    };
  }

  app.get(
    path,
    {
      config: { scope: 'read' },
      schema: {
        tags: ['projects'],
        summary: "The project's budgets and this month's estimated cost",
        security: bearerSecurity,
        params,
        response: { 200: BudgetsSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => present(request.params.projectId),
  );

  app.patch(
    path,
    {
      config: { scope: 'write' },
      schema: {
        tags: ['projects'],
        summary: "Change the project's budgets",
        description: 'Sets the budgets given and keeps the others; null removes one.',
        security: bearerSecurity,
        params,
        body: BudgetsPatchBody,
        response: { 200: BudgetsSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const patch: Record<string, unknown> = {};
      if (request.body.monthlyBudgetUsd !== undefined) patch.monthlyBudgetUsd = request.body.monthlyBudgetUsd;
      if (request.body.maxTokensPerJob !== undefined) patch.maxTokensPerJob = request.body.maxTokensPerJob;
      if (Object.keys(patch).length > 0) {
        const updated = await projects.updateSettings(request.params.projectId, patch);
        if (updated === null) throw new NotFoundError('Project not found');
      }
      return present(request.params.projectId);
    },
  );
};
