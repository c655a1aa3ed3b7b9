import type { FastifyInstance } from 'fastify';
import { decodeJobCursor, encodeJobCursor } from '../../agent-jobs/job-cursor.ts';
import type { JobEventFeed } from '../../agent-jobs/job-event-feed.ts';
import type { JobService } from '../../agent-jobs/job-service.ts';
import { type JobStatus, jobStatuses } from '../../agent-jobs/job-status.ts';
import { checkPrompt } from '../../agent-jobs/prompt.ts';
import type { ReviewService } from '../../code-hosts/local/review-service.ts';
import { InvalidInputError } from '../../errors.ts';
import type { JobEventStreams } from '../../http/job-event-stream.ts';
import type { Project } from '../../projects/project.ts';
import type { ProjectService } from '../../projects/project-service.ts';
import { formField } from '../form.ts';
import { renderJobEventItem } from '../pages/job-event-item.ts';
import { type JobDiff, renderJobPage } from '../pages/job-page.ts';
import { renderJobsPage } from '../pages/jobs-page.ts';
import { loadPageContext, projectPath } from '../project-context.ts';
import { sendPage } from '../send-page.ts';

type ProjectParameters = { Params: { projectId: string } };
type JobParameters = { Params: { projectId: string; jobId: string } };

export interface JobRouteDependencies {
  projects: ProjectService;
  jobs: JobService;
  jobEvents: JobEventFeed;
  reviews: ReviewService;
  streams: JobEventStreams;
  /** Counts a create or follow-up against the project's agent rate limit (as the API does). */
  consumeAgentRateLimit(projectId: string): Promise<void>;
}

function promptOf(body: unknown): string {
  const prompt = formField(body, 'prompt').replace(/\r\n/g, '\n');
  // Checked before the rate limit counts the request (the job service checks it again).
  checkPrompt(prompt);
  return prompt;
}

async function diffOf(
  reviews: ReviewService,
  project: Project,
  job: { id: string; status: JobStatus },
): Promise<JobDiff> {
  if (project.codeHost !== 'local') {
    return { kind: 'none', reason: `The diff is on the pull request (${project.codeHost}).` };
  }
  const review = await reviews.latestOfJob(job.id);
  if (review === null) {
    return {
      kind: 'none',
      reason: job.status === 'active' ? 'No changes published yet.' : 'No file changed.',
    };
  }
  return reviews.readDiff(review).then(
    (text): JobDiff => ({ kind: 'diff', text }),
    (): JobDiff => ({ kind: 'none', reason: 'The branch is no longer in the repository.' }),
  );
}

export function registerJobRoutes(app: FastifyInstance, dependencies: JobRouteDependencies): void {
  const { projects, jobs, jobEvents, reviews, streams } = dependencies;

  app.get<ProjectParameters & { Querystring: { status?: string; cursor?: string } }>(
    '/projects/:projectId/jobs',
    async (request, reply) => {
      const context = await loadPageContext(
        projects,
        request.dashboardSession!,
        request.params.projectId,
        'jobs',
      );
      const requested = request.query.status;
      const status = jobStatuses.includes(requested as JobStatus) ? (requested as JobStatus) : null;
      const after = request.query.cursor ? decodeJobCursor(request.query.cursor) : null;
      const page = await jobs.list(context.project.id, { status, limit: 25, after });
      const prompts = await jobs.firstPrompts(page.jobs.map((job) => job.id));
      return sendPage(
        reply,
        renderJobsPage(context, {
          jobs: page.jobs,
          prompts,
          status,
          nextCursor: page.next ? encodeJobCursor(page.next) : null,
        }),
      );
    },
  );

  app.post<ProjectParameters>('/projects/:projectId/jobs', async (request, reply) => {
    const { projectId } = request.params;
    const prompt = promptOf(request.body);
    await dependencies.consumeAgentRateLimit(projectId);
    const created = await jobs.create(projectId, prompt);
    return reply.redirect(projectPath(projectId, `/jobs/${encodeURIComponent(created.body.id)}`), 303);
  });

  app.get<JobParameters & { Querystring: { done?: string } }>(
    '/projects/:projectId/jobs/:jobId',
    async (request, reply) => {
      const context = await loadPageContext(
        projects,
        request.dashboardSession!,
        request.params.projectId,
        'jobs',
      );
      const job = await jobs.get(context.project.id, request.params.jobId);
      const [events, diff] = await Promise.all([
        jobEvents.list(job.id, 0, 5000),
        diffOf(reviews, context.project, job),
      ]);
      const done = request.query.done;
      return sendPage(reply, renderJobPage(context, { job, events, diff, ...(done ? { done } : {}) }));
    },
  );

  app.get<JobParameters & { Querystring: { after?: string } }>(
    '/projects/:projectId/jobs/:jobId/events',
    async (request, reply) => {
      const job = await jobs.get(request.params.projectId, request.params.jobId);
      const header = request.headers['last-event-id'];
      const after = Number(typeof header === 'string' ? header : (request.query.after ?? 0));
      if (!Number.isSafeInteger(after) || after < 0) throw new InvalidInputError('after must be an event id');
      const ticket = streams.admit(`user:${request.dashboardSession!.userId}`);
      reply.hijack();
      await streams.stream(reply.raw, {
        ticket,
        jobId: job.id,
        after,
        requestId: request.id,
        namedEvents: false,
        format: (event) =>
          JSON.stringify({
            type: event.type,
            status: event.type === 'status-change' ? event.data.to : undefined,
            html: renderJobEventItem(event).value,
          }),
      });
      return reply;
    },
  );

  app.post<JobParameters>('/projects/:projectId/jobs/:jobId/messages', async (request, reply) => {
    const { projectId, jobId } = request.params;
    const prompt = promptOf(request.body);
    await jobs.get(projectId, jobId);
    await dependencies.consumeAgentRateLimit(projectId);
    await jobs.message(projectId, jobId, prompt);
    return reply.redirect(projectPath(projectId, `/jobs/${encodeURIComponent(jobId)}?done=message`), 303);
  });

  app.post<JobParameters>('/projects/:projectId/jobs/:jobId/archive', async (request, reply) => {
    const { projectId, jobId } = request.params;
    await jobs.archive(projectId, jobId);
    return reply.redirect(projectPath(projectId, `/jobs/${encodeURIComponent(jobId)}?done=archived`), 303);
  });
}
