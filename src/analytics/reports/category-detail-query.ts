/**
 * The `?detail=categories` part of the export: per page and over the range, human views sent by an AI
 * answer (`aiReferred`), AI search and training crawler views, other bots, and verified AI views. Read
 * from the per-page rollup rows (the source of truth; the packed rows hold only the export's three
 * counters) and the raw events of partial hours at the edges, with the same plan as the export.
 */
import type { Queryable } from '../../db/database.ts';
import type { DateRange } from './date-range.ts';
import { planRange } from './range-plan.ts';

export interface CategoryDetail {
  aiReferred: number;
  aiSearch: number;
  aiTraining: number;
  otherBots: number;
  verifiedAi: number;
}

export interface CategoryDetails {
  totals: CategoryDetail;
  /** By path; pages without any of these views are absent (all zero). */
  byPath: Map<string, CategoryDetail>;
}

const counters = ['ai_referred', 'ai_search', 'ai_training', 'bot', 'verified_ai'] as const;

export async function queryCategoryDetails(
  db: Queryable,
  query: { projectId: string; range: DateRange; now?: number },
): Promise<CategoryDetails> {
  const pieces = planRange(query.range.from, query.range.to, { now: query.now, layout: 'packed' });
  const rollupPieces = pieces.filter((piece) => piece.level !== 'raw');
  const rawPieces = pieces.filter((piece) => piece.level === 'raw');
  const parameters: unknown[] = [
    query.projectId,
    rollupPieces.map((piece) => piece.level),
    rollupPieces.map((piece) => (piece.from === null ? null : new Date(piece.from))),
    rollupPieces.map((piece) => (piece.to === null ? null : new Date(piece.to))),
    rollupPieces.map((piece) => piece.sign),
    rawPieces.map((piece) => (piece.from === null ? null : new Date(piece.from))),
    rawPieces.map((piece) => (piece.to === null ? null : new Date(piece.to))),
  ];
  const result = await db.query<{ path: string } & Record<(typeof counters)[number], number>>(
    `WITH pieces AS (
       SELECT * FROM unnest($2::text[], $3::timestamptz[], $4::timestamptz[], $5::integer[])
         AS piece (granularity, low, high, sign)
     ), from_rows AS (
       -- A piece of any packed level is the hour or day rows inside it, as in the export. Open
       -- bounds as infinities, not OR IS NULL: that keeps the bucket range an index range (with
       -- the OR, PostgreSQL scanned every rollup row of every project and filtered).
       SELECT rollup.path_id, ${counters.map((name) => `sum(pieces.sign * rollup.${name}) AS ${name}`).join(', ')}
       FROM pieces
       JOIN analytics_rollup_series AS series
         ON series.project_id = $1 AND series.granularity = analytics_row_level(pieces.granularity)
       JOIN analytics_path_rollups AS rollup ON rollup.series = series.id
         AND rollup.bucket >= coalesce(pieces.low, '-infinity') AND rollup.bucket < coalesce(pieces.high, 'infinity')
       GROUP BY rollup.path_id
     ), edges AS (
       SELECT views.path, views.category, views.verified, views.ai_referrer
       FROM unnest($6::timestamptz[], $7::timestamptz[]) AS edge (low, high)
       JOIN analytics_page_views AS views ON views.project_id = $1
         AND views.occurred_at >= edge.low AND views.occurred_at < edge.high
     ), summed AS (
       -- Summed by path id first: one path lookup per page, not per rollup row.
       SELECT paths.path, ${counters.map((name) => `from_rows.${name}`).join(', ')}
       FROM from_rows JOIN analytics_paths AS paths ON paths.project_id = $1 AND paths.id = from_rows.path_id
       UNION ALL
       SELECT path,
         count(*) FILTER (WHERE category = 'human' AND ai_referrer IS NOT NULL),
         count(*) FILTER (WHERE category = 'ai_search'), count(*) FILTER (WHERE category = 'ai_training'),
         count(*) FILTER (WHERE category = 'bot'),
         count(*) FILTER (WHERE verified AND category IN ('ai_assistant', 'ai_search', 'ai_training'))
       FROM edges GROUP BY path
     )
     SELECT path, ${counters.map((name) => `sum(${name})::bigint AS ${name}`).join(', ')}
     FROM summed GROUP BY path`,
    parameters,
  );
  const totals: CategoryDetail = { aiReferred: 0, aiSearch: 0, aiTraining: 0, otherBots: 0, verifiedAi: 0 };
  const byPath = new Map<string, CategoryDetail>();
  for (const row of result.rows) {
    const detail: CategoryDetail = {
      aiReferred: Number(row.ai_referred),
      aiSearch: Number(row.ai_search),
      aiTraining: Number(row.ai_training),
      otherBots: Number(row.bot),
      verifiedAi: Number(row.verified_ai),
    };
    for (const key of Object.keys(totals) as Array<keyof CategoryDetail>) totals[key] += detail[key];
    byPath.set(row.path, detail);
  }
  return { totals, byPath };
}

export const noCategoryDetail: Readonly<CategoryDetail> = Object.freeze({
  aiReferred: 0,
  aiSearch: 0,
  aiTraining: 0,
  otherBots: 0,
  verifiedAi: 0,
});
