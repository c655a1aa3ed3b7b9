import type { FastifyInstance } from 'fastify';
import { parseScopes } from '../../auth/api-key.ts';
import type { ApiKeyService } from '../../auth/api-key-service.ts';
import { parseAddressList } from '../../config.ts';
import { NotFoundError } from '../../errors.ts';
import type { ProjectService } from '../../projects/project-service.ts';
import { formField, formFields } from '../form.ts';
import { keyExpiryChoices, renderKeysPage } from '../pages/keys-page.ts';
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
    // Absent (an older form): 90 days, the first choice shown.
    const expiresInDays = formField(request.body, 'expiresInDays') || '90';
    const addressText = formField(request.body, 'allowedAddresses').trim();
    const allowedAddresses = addressText === '' ? null : parseAddressList(addressText);
    const problem =
      name.length < 1 || name.length > 200
        ? 'A key needs a name of 1 to 200 characters.'
        : scopes === null
          ? 'Choose at least one scope.'
          : !(keyExpiryChoices as readonly string[]).includes(expiresInDays)
            ? 'Choose when the key expires: in 7, 30, 60 or 90 days, or never.'
            : allowedAddresses !== null && (allowedAddresses.length === 0 || allowedAddresses.length > 50)
              ? 'Allowed addresses are 1 to 50 IP addresses or CIDRs, separated by commas.'
              : addressText !== '' && allowedAddresses === null
                ? 'Allowed addresses are IP addresses or CIDRs (203.0.113.0/24), separated by commas.'
                : null;
    if (problem !== null || scopes === null) {
      const keys = await apiKeys.list(context.project.id);
      const form = { name, scopes: scopeList, expiresInDays, allowedAddresses: addressText };
      return sendPage(
        reply.code(400),
        renderKeysPage(context, { keys, publicUrl, error: problem ?? '', form }),
      );
    }
    const expiresAt =
      expiresInDays === 'never' ? null : new Date(Date.now() + Number(expiresInDays) * 24 * 3600 * 1000);
    const created = await apiKeys.create({
      projectId: context.project.id,
      name,
      scopes,
      expiresAt,
      allowedAddresses,
    });
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
