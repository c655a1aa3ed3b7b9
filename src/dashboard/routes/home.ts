import type { FastifyInstance } from 'fastify';
import type { ProjectService } from '../../projects/project-service.ts';
import { html } from '../html.ts';
import { renderPage } from '../pages/layout.ts';
import { projectPath } from '../project-context.ts';
import { sendPage } from '../send-page.ts';

export function registerHomeRoutes(app: FastifyInstance, projects: ProjectService): void {
  app.get('/', async (request, reply) => {
    const all = await projects.list();
    const first = all[0];
    if (first) return reply.redirect(projectPath(first.id, '/keys'), 303);
    const session = request.dashboardSession!;
    return sendPage(
      reply,
      renderPage(
        { email: session.email, csrfToken: session.csrfToken, project: null, projects: all, section: null },
        'No project',
        html`<h1>No project yet</h1><p class="empty">Create one on the server: <code>quire project create --name Docs --repository /path/to/docs</code>, then reload this page.</p>`,
      ),
    );
  });

  app.get<{ Params: { projectId: string } }>('/projects/:projectId', async (request, reply) =>
    reply.redirect(projectPath(request.params.projectId, '/keys'), 303),
  );
}
