/** Views per category and per agent for a range, from the agent rollups (raw events at the edges). */
import type { Queryable } from '../../db/database.ts';
import { type TrafficCategory, trafficCategories } from '../classification/index.ts';
import type { DateRange } from './date-range.ts';
import { rangePiecesSql } from './range-pieces-sql.ts';
import { planRange } from './range-plan.ts';

export interface AgentsBreakdown {
  categories: Record<TrafficCategory, number>;
  /** `views` claimed by the user agent or signer; `verifiedViews` of them verified. */
  agents: Array<{ agent: string; category: TrafficCategory; views: number; verifiedViews: number }>;
}

export async function queryAgents(
  db: Queryable,
  query: { projectId: string; range: DateRange; now?: number },
): Promise<AgentsBreakdown> {
  const parameters: unknown[] = [query.projectId];
  const pieces = rangePiecesSql(
    planRange(query.range.from, query.range.to, { now: query.now }),
    parameters,
    { table: 'analytics_agent_rollups', keys: 'category, agent', counters: ['views', 'verified_views'] },
    {
      columns:
        "category, coalesce(agent, '') AS agent, count(*) AS views, count(*) FILTER (WHERE verified) AS verified_views",
      groupBy: 'category, agent',
    },
  );
  const result = await db.query<{
    category: TrafficCategory;
    agent: string;
    views: number;
    verified_views: number;
  }>(
    `WITH pieces AS (${pieces})
     SELECT category, agent, sum(views)::bigint AS views, sum(verified_views)::bigint AS verified_views FROM pieces
     GROUP BY category, agent
     ORDER BY views DESC, agent COLLATE "C", category`,
    parameters,
  );
  const categories = Object.fromEntries(trafficCategories.map((category) => [category, 0])) as Record<
    TrafficCategory,
    number
  >;
  const agents: AgentsBreakdown['agents'] = [];
  for (const row of result.rows) {
    categories[row.category] += row.views;
    if (row.agent !== '') {
      agents.push({
        agent: row.agent,
        category: row.category,
        views: row.views,
        verifiedViews: row.verified_views,
      });
    }
  }
  return { categories, agents };
}
