/**
 * `GET /v1/analytics/{projectId}/visitors`: the hosted service's sibling of `/views`, with the same
 * parameters and rules (https://www.mintlify.com/docs/api/analytics/visitors), answered from the
 * visitor sketches (docs/analytics.md, "Visitors").
 */
import { Type } from '@fastify/type-provider-typebox';
import type { AnalyticsReports } from '../../analytics/reports/index.ts';
import type { App } from '../app.ts';
import { bearerSecurity, errorResponses, ProjectIdParameter } from '../schemas.ts';
import { PageQuery, RangeQuery, rangeOf } from './analytics-reports.ts';

const VisitorCounts = {
  human: Type.Integer({ description: 'Distinct visitors with human views' }),
  ai: Type.Integer({ description: 'Distinct visitors with AI views' }),
  total: Type.Integer({
    description: 'Distinct visitors with any counted view, deduplicated across human and AI',
  }),
};

const VisitorsResponse = Type.Object({
  totals: Type.Object(VisitorCounts, { description: 'Site-wide unique visitors over the whole range' }),
  visitors: Type.Array(Type.Object({ path: Type.String(), ...VisitorCounts }), {
    description: 'Per-page unique visitors, ordered by total descending, then path ascending',
  }),
  hasMore: Type.Boolean({ description: 'True when rows exist past offset + limit' }),
});

export function registerAnalyticsVisitorRoutes(app: App, reports: AnalyticsReports): void {
  app.get(
    '/v1/analytics/:projectId/visitors',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['analytics'],
        summary: 'Get unique visitors: totals and per-page counts, human and AI',
        description:
          'Approximate distinct visitors (exact up to 4,096 per page, within 2% beyond): a visitor is one IP address and user agent on one UTC day, never stored. Views without an address count as views, not visitors. Counted in whole UTC hours: a range edge inside an hour includes that hour.',
        security: bearerSecurity,
        params: Type.Object({ projectId: ProjectIdParameter }),
        querystring: Type.Object({ ...RangeQuery, ...PageQuery }),
        response: { 200: VisitorsResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { limit, offset } = request.query;
      return reports.visitors({
        projectId: request.params.projectId,
        range: rangeOf(request.query),
        limit,
        offset,
      });
    },
  );
}
