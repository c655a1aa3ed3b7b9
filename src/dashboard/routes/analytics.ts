import type { FastifyInstance } from 'fastify';
import { InvalidInputError, NotFoundError } from '../../errors.ts';
import type { ProjectService } from '../../projects/project-service.ts';
import type { AnalyticsSource, DateRange, TimeSeriesResult, VisitorsResult } from '../analytics-source.ts';
import { type AnalyticsPageState, renderAnalyticsPage, viewsPerPage } from '../pages/analytics-page.ts';
import { loadPageContext } from '../project-context.ts';
import { sendPage } from '../send-page.ts';
import { viewsCsvHeader, viewsCsvRows } from '../views-csv.ts';

type AnalyticsRequest = {
  Params: { projectId: string };
  Querystring: { from?: string; to?: string; page?: string };
};

const day = 86_400_000;
const maximumCsvRows = 200_000;

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function parseDay(text: string, name: string): Date {
  const date = new Date(`${text}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(date.getTime()) || isoDay(date) !== text) {
    throw new InvalidInputError(`"${name}" must be a date such as 2026-01-31`);
  }
  return date;
}

/** The picker's days (both inclusive; default the last 30 days) and the range they mean. */
export function readRange(query: { from?: string; to?: string }, now: Date) {
  const today = isoDay(now);
  const to = query.to || today;
  const from = query.from || isoDay(new Date(Date.parse(to) - 29 * day));
  const fromDate = parseDay(from, 'From');
  const toDate = parseDay(to, 'To');
  if (fromDate > toDate) throw new InvalidInputError('"From" must not be after "To"');
  const range: DateRange = { from: fromDate, to: new Date(toDate.getTime() + day) };
  const interval: 'hour' | 'day' = toDate.getTime() - fromDate.getTime() < 2 * day ? 'hour' : 'day';
  return { from, to, today, range, interval };
}

/** The chart's points with the site's visitors of each period (0 where it had none). */
function withVisitors(
  series: TimeSeriesResult,
  visitors: { start: string; visitors: number }[],
): TimeSeriesResult {
  const byStart = new Map(visitors.map((point) => [point.start, point.visitors]));
  return {
    ...series,
    points: series.points.map((point) => ({ ...point, visitors: byStart.get(point.start) ?? 0 })),
  };
}

function visitorsByPath(result: VisitorsResult): ReadonlyMap<string, number> {
  return new Map(result.visitors.map((row) => [row.path, row.total]));
}

export function registerAnalyticsRoutes(
  app: FastifyInstance,
  options: { projects: ProjectService; source: AnalyticsSource | null; now?: () => Date },
): void {
  const { projects, source } = options;
  const now = options.now ?? (() => new Date());

  app.get<AnalyticsRequest>('/projects/:projectId/analytics', async (request, reply) => {
    const context = await loadPageContext(
      projects,
      request.dashboardSession!,
      request.params.projectId,
      'analytics',
    );
    const today = isoDay(now());
    const pageText = request.query.page ?? '1';
    const page = /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) : 1;
    let state: AnalyticsPageState;
    try {
      const { from, to, range, interval } = readRange(request.query, now());
      if (source === null) {
        state = { from, to, page, data: { kind: 'unavailable' } };
      } else {
        const projectId = context.project.id;
        const [views, agents, series, visitors, visitorSeries] = await Promise.all([
          source.views(projectId, range, { limit: viewsPerPage, offset: (page - 1) * viewsPerPage }),
          source.agents(projectId, range),
          source.timeSeries(projectId, range, interval),
          source.visitors(projectId, range),
          source.visitorSeries(projectId, { from: range.from as Date, to: range.to as Date }, interval),
        ]);
        state = {
          from,
          to,
          page,
          data: { kind: 'ready', views, agents, series: withVisitors(series, visitorSeries), visitors },
        };
      }
    } catch (error: unknown) {
      if (!(error instanceof InvalidInputError)) throw error;
      const fallback = request.query;
      state = {
        from: fallback.from ?? '',
        to: fallback.to ?? '',
        page,
        data: { kind: 'error', message: error.message },
      };
      reply.code(400);
    }
    return sendPage(reply, renderAnalyticsPage(context, state, today));
  });

  app.get<AnalyticsRequest>('/projects/:projectId/analytics/views.csv', async (request, reply) => {
    const project = await projects.find(request.params.projectId);
    if (project === null) throw new NotFoundError('There is no project with this id');
    if (source === null) throw new NotFoundError('Analytics is not part of this build of Quire');
    const { from, to, range } = readRange(request.query, now());
    const visitors = visitorsByPath(await source.visitors(project.id, range));
    let body = viewsCsvHeader();
    for (let offset = 0; offset < maximumCsvRows; offset += 250) {
      const page = await source.views(project.id, range, { limit: 250, offset });
      body += viewsCsvRows(page.views, visitors);
      if (!page.hasMore) break;
    }
    return reply
      .type('text/csv; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="quire-views-${project.id}-${from}-to-${to}.csv"`)
      .send(body);
  });
}
