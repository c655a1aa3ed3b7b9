import { Type } from '@fastify/type-provider-typebox';
import { type AnalyticsReports, parseDateRange, timeSeriesIntervals } from '../../analytics/reports/index.ts';
import { InvalidInputError } from '../../errors.ts';
import type { App } from '../app.ts';
import { bearerSecurity, errorResponses, ProjectIdParameter } from '../schemas.ts';

const dateForms = 'ISO 8601 date-time with Z or an offset, or YYYY-MM-DD (midnight UTC)';

/** The shape only; the calendar (2026-02-30) and the order of the two are checked by parseDateRange. */
const datePattern =
  '^\\d{4}-\\d{2}-\\d{2}([Tt]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:?\\d{2}))?$';

export const RangeQuery = {
  dateFrom: Type.Optional(
    Type.String({ maxLength: 64, pattern: datePattern, description: `Inclusive. ${dateForms}` }),
  ),
  dateTo: Type.Optional(
    Type.String({ maxLength: 64, pattern: datePattern, description: `Exclusive. ${dateForms}` }),
  ),
};

const Counts = {
  human: Type.Integer({ description: 'Views from human traffic' }),
  ai: Type.Integer({ description: 'Views from AI traffic' }),
  total: Type.Integer({ description: 'human + ai' }),
};

/** Present only with `detail=categories`; after the specified fields, so the default shape is unchanged. */
const CategoryDetail = {
  aiReferred: Type.Optional(
    Type.Integer({ description: 'Human views sent by an AI answer (referrer or utm_source)' }),
  ),
  aiSearch: Type.Optional(Type.Integer({ description: 'Views by AI search crawlers' })),
  aiTraining: Type.Optional(Type.Integer({ description: 'Views by AI training crawlers' })),
  otherBots: Type.Optional(Type.Integer({ description: 'Views by other bots' })),
  verifiedAi: Type.Optional(Type.Integer({ description: 'AI views whose agent was verified' })),
};

const PageViewsResponse = Type.Object({
  totals: Type.Object(
    { ...Counts, ...CategoryDetail },
    { description: 'Site-wide totals over the whole range, all pages' },
  ),
  views: Type.Array(Type.Object({ path: Type.String(), ...Counts, ...CategoryDetail }), {
    description: 'Ordered by total descending, then path ascending',
  }),
  hasMore: Type.Boolean({ description: 'True when rows exist past offset + limit' }),
});

/** Validates dateFrom/dateTo beyond the schema; every problem becomes one detail. */
export function rangeOf(query: { dateFrom?: string; dateTo?: string }) {
  const { range, problems } = parseDateRange(query);
  if (problems.length > 0) {
    throw new InvalidInputError(
      'Invalid querystring',
      problems.map((message) => ({ message })),
    );
  }
  return range;
}

/** `limit` and `offset` of the exports, as the hosted service defines them. */
export const PageQuery = {
  limit: Type.Integer({ minimum: 1, maximum: 250, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }),
};

export function registerAnalyticsReportRoutes(app: App, reports: AnalyticsReports): void {
  app.get(
    '/v1/analytics/:projectId/views',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['analytics'],
        summary: 'Get page views: totals and per-page counts, human and AI',
        security: bearerSecurity,
        params: Type.Object({ projectId: ProjectIdParameter }),
        querystring: Type.Object({
          ...RangeQuery,
          ...PageQuery,
          detail: Type.Optional(
            Type.Literal('categories', {
              description:
                'Adds aiReferred, aiSearch, aiTraining, otherBots and verifiedAi to totals and every row; without it the response has exactly the specified shape',
            }),
          ),
        }),
        response: { 200: PageViewsResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { limit, offset, detail } = request.query;
      const query = {
        projectId: request.params.projectId,
        range: rangeOf(request.query),
        limit,
        offset,
        now: Date.now(),
      };
      return detail === 'categories' ? reports.pageViewsByCategory(query) : reports.pageViews(query);
    },
  );

  app.get(
    '/v1/analytics/:projectId/agents',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['analytics'],
        summary: 'Views per traffic category and per agent (AI agents and other bots)',
        security: bearerSecurity,
        params: Type.Object({ projectId: ProjectIdParameter }),
        querystring: Type.Object(RangeQuery),
        response: {
          200: Type.Object({
            categories: Type.Object({
              human: Type.Integer(),
              ai_assistant: Type.Integer(),
              ai_search: Type.Integer(),
              ai_training: Type.Integer(),
              bot: Type.Integer(),
            }),
            agents: Type.Array(
              Type.Object({
                agent: Type.String(),
                category: Type.String(),
                views: Type.Integer({
                  description: 'Views whose user agent or signature claimed this agent',
                }),
                verifiedViews: Type.Integer({
                  description:
                    'Of those, views verified by a Web Bot Auth signature, the published address ranges or reverse DNS',
                }),
              }),
              { description: 'Ordered by views descending, then agent' },
            ),
          }),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) =>
      reports.agents({
        projectId: request.params.projectId,
        range: rangeOf(request.query),
        now: Date.now(),
      }),
  );

  app.get(
    '/v1/analytics/:projectId/timeseries',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['analytics'],
        summary: 'Views per hour or day, per category, for charts',
        description:
          'Buckets are whole UTC hours or days; a range edge inside a bucket includes that whole bucket. Default range: the last 30 days (day) or 48 hours (hour).',
        security: bearerSecurity,
        params: Type.Object({ projectId: ProjectIdParameter }),
        querystring: Type.Object({
          ...RangeQuery,
          interval: Type.Union(
            timeSeriesIntervals.map((interval) => Type.Literal(interval)),
            { default: 'day' },
          ),
        }),
        response: {
          200: Type.Object({
            interval: Type.String(),
            points: Type.Array(
              Type.Object({
                start: Type.String({ format: 'date-time' }),
                human: Type.Integer(),
                ai: Type.Integer(),
                ai_assistant: Type.Integer(),
                ai_search: Type.Integer(),
                ai_training: Type.Integer(),
                bot: Type.Integer(),
              }),
            ),
          }),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) =>
      reports.timeSeries({
        projectId: request.params.projectId,
        range: rangeOf(request.query),
        interval: request.query.interval,
        now: Date.now(),
      }),
  );
}
