import { NotFoundError } from '../errors.ts';
import type { Project } from '../projects/project.ts';
import type { ProjectService } from '../projects/project-service.ts';
import type { PageContext, Section } from './pages/layout.ts';

/** What every project page needs: the project (404 when unknown), the switcher's list, the user. */
export async function loadPageContext(
  projects: ProjectService,
  session: { email: string; csrfToken: string },
  projectId: string,
  section: Section,
): Promise<PageContext & { project: Project }> {
  const [project, all] = await Promise.all([projects.find(projectId), projects.list()]);
  if (project === null) throw new NotFoundError('There is no project with this id');
  return { email: session.email, csrfToken: session.csrfToken, project, projects: all, section };
}

export function projectPath(projectId: string, rest = ''): string {
  return `/dashboard/projects/${encodeURIComponent(projectId)}${rest}`;
}
