import { Type } from '@fastify/type-provider-typebox';
import { NotFoundError } from '../../errors.ts';
import { presentProject } from '../../projects/project.ts';
import type { RouteRegistrar } from '../app.ts';
import { bearerSecurity, errorResponses, ProjectIdParameter } from '../schemas.ts';

const ProjectResponse = Type.Object({
  id: Type.String(),
  name: Type.String(),
  repository: Type.Union([Type.String(), Type.Null()]),
  ref: Type.String(),
  codeHost: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

export const registerProjectRoutes: RouteRegistrar = (app, { projects }) => {
  app.get(
    '/v1/projects/:projectId',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['projects'],
        summary: 'Get the project an API key belongs to',
        security: bearerSecurity,
        params: Type.Object({ projectId: ProjectIdParameter }),
        response: { 200: ProjectResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const project = await projects.find(request.params.projectId);
      if (project === null) throw new NotFoundError('Project not found');
      return presentProject(project);
    },
  );
};
