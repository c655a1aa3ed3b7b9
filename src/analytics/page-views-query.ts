/**
 * The export of DESIGN.md §1: site-wide totals and one page of per-page counts for a range, in
 * one statement over the rollups (raw events only for partial hours at the edges).
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import type { DateRange } from './date-range.ts';
import { rangePiecesSql } from './range-pieces-sql.ts';
import { planRange } from './range-plan.ts';

export interface PageViewCounts {
  human: number;
  ai: number;
  total: number;
}

export interface PageViewsExport {
  totals: PageViewCounts;
  views: Array<{ path: string } & PageViewCounts>;
  hasMore: boolean;
}

export interface PageViewsQuery {
  projectId: string;
  range: DateRange;
  /** Lets the plan treat buckets after now as empty; omit it to plan without that knowledge. */
  now?: number;
  limit: number;
  offset: number;
}

interface ExportRow {
  total_human: number;
  total_ai: number;
  pages: number;
  path: string | null;
  human: number | null;
  ai: number | null;
}

export async function queryPageViews(db: Queryable, query: PageViewsQuery): Promise<PageViewsExport> {
  const parameters: unknown[] = [query.projectId, query.limit, query.offset];
  const pieces = rangePiecesSql(
    planRange(query.range.from, query.range.to, query.now),
    parameters,
    {
      table: 'analytics_path_rollups',
      keys: 'path',
      counters: ['human', 'ai_assistant', 'ai_search', 'ai_training'],
    },
    {
      columns: `path,
        count(*) FILTER (WHERE category = 'human') AS human,
        count(*) FILTER (WHERE category = 'ai_assistant') AS ai_assistant,
        count(*) FILTER (WHERE category = 'ai_search') AS ai_search,
        count(*) FILTER (WHERE category = 'ai_training') AS ai_training`,
      groupBy: 'path',
    },
  );
  // `ai` is ai_assistant, plus the crawlers when the project counts them (DESIGN.md §4).
  const text = `
    WITH settings AS (
      SELECT coalesce((settings ->> 'analyticsCountAiCrawlersAsAi')::boolean, false) AS crawlers_are_ai
      FROM projects WHERE id = $1
    ), pieces AS (
      ${pieces}
    ), counted AS (
      SELECT path, sum(human)::bigint AS human,
        sum(ai_assistant + CASE WHEN (SELECT crawlers_are_ai FROM settings) THEN ai_search + ai_training ELSE 0 END)::bigint AS ai
      FROM pieces GROUP BY path
    ), visible AS (
      SELECT path, human, ai, human + ai AS total FROM counted WHERE human + ai > 0
    )
    SELECT totals.human AS total_human, totals.ai AS total_ai, totals.pages, page.path, page.human, page.ai
    FROM (SELECT coalesce(sum(human), 0)::bigint AS human, coalesce(sum(ai), 0)::bigint AS ai, count(*) AS pages FROM visible) AS totals
    LEFT JOIN LATERAL (
      SELECT path, human, ai FROM visible ORDER BY total DESC, path COLLATE "C" LIMIT $2 OFFSET $3
    ) AS page ON true`;
  // The text depends only on which pieces the range has, so a few prepared statements cover all
  // ranges; preparing them saves the planning time (milliseconds, as much as executing).
  const name = `analytics-views-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
  const result = await db.query<ExportRow>({ name, text, values: parameters });
  const first = result.rows[0];
  const totalHuman = first?.total_human ?? 0;
  const totalAi = first?.total_ai ?? 0;
  const views = result.rows.flatMap((row) =>
    row.path === null
      ? []
      : [{ path: row.path, human: row.human ?? 0, ai: row.ai ?? 0, total: (row.human ?? 0) + (row.ai ?? 0) }],
  );
  return {
    totals: { human: totalHuman, ai: totalAi, total: totalHuman + totalAi },
    views,
    hasMore: (first?.pages ?? 0) > query.offset + query.limit,
  };
}
