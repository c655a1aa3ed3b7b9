import type { FastifyInstance } from 'fastify';
import { parseScopes } from '../../auth/api-key.ts';
import type { ApiKeyService } from '../../auth/api-key-service.ts';
import { NotFoundError } from '../../errors.ts';
import type { ProjectService } from '../../projects/project-service.ts';
import { formField, formFields } from '../form.ts';
import { renderKeysPage } from '../pages/keys-page.ts';
import { loadPageContext, projectPath } from '../project-context.ts';
import { sendPage } from '../send-page.ts';

type ProjectParameters = { Params: { projectId: string } };

export function registerKeyRoutes(
  app: FastifyInstance,
  options: { projects: ProjectService; apiKeys: ApiKeyService; publicUrl: string },
): void {
  const { projects, publicUrl, apiKeys } = options;
  app.get<ProjectParameters & { Querystring: { done?: string } }>(
    '/projects/:projectId/keys',
    async (request, reply) => {
      const context = await loadPageContext(
        projects,
        request.dashboardSession!,
        request.params.projectId,
        'keys',
      );
      const keys = await apiKeys.list(context.project.id);
      const done = request.query.done === 'revoked' ? 'revoked' : undefined;
      return sendPage(reply, renderKeysPage(context, { keys, publicUrl, ...(done ? { done } : {}) }));
    },
  );

  app.post<ProjectParameters>('/projects/:projectId/keys', async (request, reply) => {
    const context = await loadPageContext(
      projects,
      request.dashboardSession!,
      request.params.projectId,
      'keys',
    );
    const name = formField(request.body, 'name').trim();
    const scopeList = formFields(request.body, 'scopes');
    const scopes = parseScopes(scopeList.join(','));
    const problem =
      name.length < 1 || name.length > 200
        ? 'A key needs a name of 1 to 200 characters.'
        : scopes === null
          ? 'Choose at least one scope.'
          : null;
    if (problem !== null || scopes === null) {
      const keys = await apiKeys.list(context.project.id);
      return sendPage(
        reply.code(400),
        renderKeysPage(context, { keys, publicUrl, error: problem ?? '', form: { name, scopes: scopeList } }),
      );
    }
    const created = await apiKeys.create({ projectId: context.project.id, name, scopes });
    const keys = await apiKeys.list(context.project.id);
    return sendPage(reply.code(201), renderKeysPage(context, { keys, publicUrl, created }));
  });

  app.post<{ Params: { projectId: string; keyId: string } }>(
    '/projects/:projectId/keys/:keyId/revoke',
    async (request, reply) => {
      const { projectId, keyId } = request.params;
      const key = (await apiKeys.list(projectId)).find((item) => item.id === keyId);
      if (key === undefined) throw new NotFoundError('There is no such key in this project');
      await apiKeys.revoke(key.id);
      return reply.redirect(projectPath(projectId, '/keys?done=revoked'), 303);
    },
  );
}
