/**
 * The export of DESIGN.md §1: site-wide totals and one page of per-page counts for a range, in
 * one statement. Closed buckets are read packed (one row per bucket, rollup-packer.ts) and summed
 * here; buckets not packed yet are read from the per-page rollup rows and the partial hours at the
 * edges from raw events, both summed by PostgreSQL.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import {
  decodePackedEntries,
  learnNewerPaths,
  packedCountsWidth,
  packedDetailWidth,
  pathDictionary,
} from '../storage/index.ts';
import type { DateRange } from './date-range.ts';
import { type Piece, planRange } from './range-plan.ts';

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
  /** Lets the plan treat buckets after now as empty and know which are packed; omit it to plan
   *  without that knowledge (the counts are the same). */
  now?: number;
  limit: number;
  offset: number;
}

/** The `?detail=categories` counters: per page and over the range, human views sent by an AI
 *  answer, AI search and training crawler views, other bots, and verified AI views. */
export interface CategoryDetail {
  aiReferred: number;
  aiSearch: number;
  aiTraining: number;
  otherBots: number;
  verifiedAi: number;
}

export interface PageViewsByCategory {
  totals: PageViewCounts & CategoryDetail;
  views: Array<{ path: string } & PageViewCounts & CategoryDetail>;
  hasMore: boolean;
}

/** The rollup columns of the detail counters, in `CategoryDetail`'s order. */
const detailColumns = ['ai_referred', 'ai_search', 'ai_training', 'bot', 'verified_ai'] as const;

/** The statement returns five kinds of rows; the columns a kind does not use are null. */
interface ExportRow extends Partial<Record<(typeof detailColumns)[number], number | null>> {
  /** `packed`: a packed bucket (`number` is its sign, `counts` its entries); `rows`: one page's
   *  counts from rollup rows (`number` is its path id); `raw`: one page's counts from the raw events
   *  of the edges (`path` is its path); `path`: a dictionary entry (`number` is its id);
   *  `settings`: `number` is 1 when the project counts AI crawlers as `ai`. */
  kind: 'packed' | 'rows' | 'raw' | 'path' | 'settings';
  number: number | null;
  /** Base64: a third of hex's size on the wire, and decoded natively. */
  counts: string | null;
  path: string | null;
  human: number | null;
  ai_assistant: number | null;
  ai_crawlers: number | null;
  /** With detail, a packed bucket's detail counters (base64). */
  detail?: string | null;
}

export async function queryPageViews(db: Queryable, query: PageViewsQuery): Promise<PageViewsExport> {
  const sums = await sumRange(db, query, false);
  return exportPage(sums, query, (index) => pageCounts(sums, index));
}

/** The export with the `?detail=categories` counters on its totals and every row, from the same rows. */
export async function queryPageViewsByCategory(
  db: Queryable,
  query: PageViewsQuery,
): Promise<PageViewsByCategory> {
  const sums = await sumRange(db, query, true);
  const counters = sums.detail as Float64Array[];
  // A page's counters, or (`id` null) their sums over every page, bots-only pages included.
  const detailOf = (id: number | null): CategoryDetail => {
    const value = (index: number) => {
      const counter = counters[index] as Float64Array;
      return id === null ? counter.reduce((sum, count) => sum + count, 0) : (counter[id] ?? 0);
    };
    return {
      aiReferred: value(0),
      aiSearch: value(1),
      aiTraining: value(2),
      otherBots: value(3),
      verifiedAi: value(4),
    };
  };
  const page = exportPage(sums, query, (index) => ({
    ...pageCounts(sums, index),
    ...detailOf(sums.ids[index] as number),
  }));
  return { totals: { ...page.totals, ...detailOf(null) }, views: page.views, hasMore: page.hasMore };
}

/**
 * The visible pages of a range (human + ai > 0), in path-id order, as parallel arrays (objects only
 * for the page of rows returned), and with `detail` the five detail counters of every path id.
 */
interface RangeSums {
  paths: string[];
  ids: number[];
  human: number[];
  ai: number[];
  detail: Float64Array[] | null;
}

function pageCounts(sums: RangeSums, index: number): { path: string } & PageViewCounts {
  const human = sums.human[index] ?? 0;
  const ai = sums.ai[index] ?? 0;
  return { path: sums.paths[index] ?? '', human, ai, total: human + ai };
}

async function sumRange(db: Queryable, query: PageViewsQuery, detail: boolean): Promise<RangeSums> {
  const dictionary = pathDictionary(db, query.projectId);
  const pieces = planRange(query.range.from, query.range.to, { now: query.now, layout: 'packed' });
  const rollupPieces = pieces.filter((piece) => piece.level !== 'raw');
  const rawPieces = pieces.filter((piece) => piece.level === 'raw');
  const parameters: unknown[] = [
    query.projectId,
    dictionary.complete,
    rollupPieces.map((piece) => piece.level),
    rollupPieces.map((piece) => timestamp(piece.from)),
    rollupPieces.map((piece) => timestamp(piece.to)),
    rollupPieces.map((piece) => piece.sign),
  ];
  const text = exportStatement(rawPieces, parameters, detail);
  // The text depends only on the number of raw pieces and `detail`: six prepared statements cover all ranges.
  const name = `analytics-views-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
  const result = await db.query<ExportRow>({ name, text, values: parameters });

  let crawlersAreAi = false;
  learnNewerPaths(
    dictionary,
    result.rows.flatMap((row) =>
      row.kind === 'path' && row.number !== null && row.path !== null
        ? [{ id: row.number, path: row.path }]
        : [],
    ),
  );
  for (const row of result.rows) if (row.kind === 'settings') crawlersAreAi = row.number === 1;
  // Every path id the statement returned committed before its snapshot: the dictionary has them all.
  const { paths } = dictionary;
  const known = (id: number) => {
    if (id >= paths.length) throw new Error(`A rollup refers to path id ${id}, which is unknown`);
  };
  const human = new Float64Array(paths.length);
  const ai = new Float64Array(paths.length);
  const counters = detail ? detailColumns.map(() => new Float64Array(paths.length)) : null;
  for (const row of result.rows) {
    if (row.kind === 'packed' && row.counts !== null) {
      const sign = row.number ?? 1;
      const counts = Buffer.from(row.counts, 'base64');
      // Counters by index: destructuring the reused array would iterate it for every page.
      decodePackedEntries(counts, packedCountsWidth, 'packed counts', (id, page) => {
        known(id);
        human[id] = (human[id] ?? 0) + sign * (page[0] as number);
        ai[id] = (ai[id] ?? 0) + sign * ((page[1] as number) + (crawlersAreAi ? (page[2] as number) : 0));
      });
      if (counters !== null && typeof row.detail === 'string') {
        const packedDetail = Buffer.from(row.detail, 'base64');
        decodePackedEntries(packedDetail, packedDetailWidth, 'packed detail', (id, values) => {
          known(id);
          for (const [index, counter] of counters.entries()) {
            counter[id] = (counter[id] ?? 0) + sign * (values[index] ?? 0);
          }
        });
      }
    } else if ((row.kind === 'rows' && row.number !== null) || (row.kind === 'raw' && row.path !== null)) {
      const id = row.kind === 'rows' ? (row.number as number) : dictionary.ids.get(row.path as string);
      if (id === undefined) throw new Error(`The path ${JSON.stringify(row.path)} has no id`);
      known(id);
      human[id] = (human[id] ?? 0) + (row.human ?? 0);
      ai[id] = (ai[id] ?? 0) + (row.ai_assistant ?? 0) + (crawlersAreAi ? (row.ai_crawlers ?? 0) : 0);
      if (counters !== null) {
        for (const [index, counter] of counters.entries()) {
          counter[id] =
            (counter[id] ?? 0) + Number(row[detailColumns[index] as (typeof detailColumns)[number]] ?? 0);
        }
      }
    }
  }

  const sums: RangeSums = { paths: [], ids: [], human: [], ai: [], detail: counters };
  for (let id = 1; id < paths.length; id += 1) {
    const pageHuman = human[id] ?? 0;
    const pageAi = ai[id] ?? 0;
    if (pageHuman + pageAi > 0) {
      sums.paths.push(paths[id] ?? '');
      sums.ids.push(id);
      sums.human.push(pageHuman);
      sums.ai.push(pageAi);
    }
  }
  return sums;
}

/** Totals and the requested page of rows, in export order; `row` builds the rows returned. */
function exportPage<Row>(
  sums: RangeSums,
  query: PageViewsQuery,
  row: (index: number) => Row,
): { totals: PageViewCounts; views: Row[]; hasMore: boolean } {
  let totalHuman = 0;
  let totalAi = 0;
  const pageTotals = new Float64Array(sums.paths.length);
  for (let index = 0; index < sums.paths.length; index += 1) {
    totalHuman += sums.human[index] ?? 0;
    totalAi += sums.ai[index] ?? 0;
    pageTotals[index] = (sums.human[index] ?? 0) + (sums.ai[index] ?? 0);
  }
  const end = query.offset + query.limit;
  return {
    totals: { human: totalHuman, ai: totalAi, total: totalHuman + totalAi },
    views: firstPages(pageTotals, sums.paths, end).slice(query.offset, end).map(row),
    hasMore: sums.paths.length > end,
  };
}

/**
 * The indexes of the first `count` pages in export order (total descending, then path in code
 * point order), without ordering all of them: only the pages whose total reaches the count-th
 * largest total are compared by path.
 */
export function firstPages(totals: Float64Array, paths: readonly string[], count: number): number[] {
  let threshold = Number.NEGATIVE_INFINITY;
  if (count < totals.length) threshold = totals.slice().sort()[totals.length - count] ?? threshold;
  const candidates: number[] = [];
  for (let index = 0; index < totals.length; index += 1) {
    if ((totals[index] ?? 0) >= threshold) candidates.push(index);
  }
  candidates.sort(
    (left, right) =>
      (totals[right] ?? 0) - (totals[left] ?? 0) || compareCodePoints(paths[left] ?? '', paths[right] ?? ''),
  );
  return candidates.slice(0, count);
}

function timestamp(time: number | null): Date | null {
  return time === null ? null : new Date(time);
}

/**
 * `$1` project, `$2` the path id up to which this process knows every id, `$3`-`$6` the rollup pieces (level,
 * from, to, sign; an unbounded side is null and reaches the project's first or last hour), then
 * the bounds of the raw pieces, appended here.
 */
function exportStatement(rawPieces: readonly Piece[], parameters: unknown[], detail: boolean): string {
  const raw = rawPieces.map((piece) => {
    parameters.push(timestamp(piece.from), timestamp(piece.to));
    return `SELECT path, category${detail ? ', verified, ai_referrer' : ''} FROM analytics_page_views
      WHERE project_id = $1 AND occurred_at >= $${parameters.length - 1} AND occurred_at < $${parameters.length}`;
  });
  // With `detail`, every kind of row also carries the five detail counters (packed: `detail`).
  const extra = (columns: string) => (detail ? `, ${columns}` : '');
  const nullDetail = extra(
    'NULL AS detail, NULL::bigint AS ai_referred, NULL::bigint AS ai_search, NULL::bigint AS ai_training, NULL::bigint AS bot, NULL::bigint AS verified_ai',
  );
  const firstHour = `(SELECT min(bucket) FROM analytics_path_rollups WHERE series = analytics_series($1, 'hour'))`;
  const lastHour = `(SELECT max(bucket) FROM analytics_path_rollups WHERE series = analytics_series($1, 'hour'))`;
  return `
    WITH wanted AS MATERIALIZED (
      SELECT piece.granularity, bucket.start AS bucket, piece.sign
      FROM unnest($3::text[], $4::timestamptz[], $5::timestamptz[], $6::integer[]) AS piece (granularity, low, high, sign)
      CROSS JOIN LATERAL analytics_buckets(piece.granularity,
        coalesce(piece.low, analytics_bucket_start(piece.granularity, ${firstHour})),
        coalesce(piece.high, analytics_bucket_end(piece.granularity, analytics_bucket_start(piece.granularity, ${lastHour})))
      ) AS bucket (start)
    ), found AS MATERIALIZED (
      -- OFFSET 0 keeps each lookup a lateral index scan per bucket, whatever the statistics say.
      SELECT wanted.granularity, wanted.bucket, wanted.sign, packed.counts${extra('packed.detail')}, series.id AS series
      FROM wanted
      LEFT JOIN analytics_rollup_series AS series
        ON series.project_id = $1 AND series.granularity = analytics_row_level(wanted.granularity)
      LEFT JOIN LATERAL (
        SELECT counts${extra('detail')} FROM analytics_packed_rollups
        WHERE project_id = $1 AND granularity = wanted.granularity AND bucket = wanted.bucket
        OFFSET 0
      ) AS packed ON true
    ), loose AS (
      SELECT rollup.path_id, found.sign * rollup.human AS human, found.sign * rollup.ai_assistant AS ai_assistant,
        found.sign * rollup.ai_crawlers AS ai_crawlers${extra(
          detailColumns.map((column) => `found.sign * rollup.${column} AS ${column}`).join(', '),
        )}
      FROM found CROSS JOIN LATERAL (
        SELECT path_id, human, ai_assistant, ai_search + ai_training AS ai_crawlers${extra(detailColumns.join(', '))}
        FROM analytics_path_rollups
        WHERE series = found.series AND bucket >= found.bucket AND bucket < analytics_bucket_end(found.granularity, found.bucket)
        OFFSET 0
      ) AS rollup
      WHERE found.counts IS NULL
    ), edges AS (
      ${
        raw.length === 0
          ? `SELECT NULL::text AS path, NULL::text AS category${extra('NULL::boolean AS verified, NULL::text AS ai_referrer')} WHERE false`
          : raw.join('\nUNION ALL ')
      }
    )
    SELECT 'packed' AS kind, sign AS number, encode(counts, 'base64') AS counts, NULL AS path,
      NULL::bigint AS human, NULL::bigint AS ai_assistant, NULL::bigint AS ai_crawlers${extra(
        `encode(detail, 'base64') AS detail, ${detailColumns.map((column) => `NULL::bigint AS ${column}`).join(', ')}`,
      )}
    FROM found WHERE counts IS NOT NULL
    UNION ALL
    SELECT 'rows', path_id, NULL, NULL, sum(human)::bigint, sum(ai_assistant)::bigint, sum(ai_crawlers)::bigint${extra(
      `NULL, ${detailColumns.map((column) => `sum(${column})::bigint`).join(', ')}`,
    )}
    FROM loose GROUP BY path_id
    UNION ALL
    -- By path: mapped to ids here, from the dictionary this statement completes.
    SELECT 'raw', NULL, NULL, path, count(*) FILTER (WHERE category = 'human'),
      count(*) FILTER (WHERE category = 'ai_assistant'),
      count(*) FILTER (WHERE category IN ('ai_search', 'ai_training'))${extra(
        `NULL, count(*) FILTER (WHERE category = 'human' AND ai_referrer IS NOT NULL),
        count(*) FILTER (WHERE category = 'ai_search'), count(*) FILTER (WHERE category = 'ai_training'),
        count(*) FILTER (WHERE category = 'bot'),
        count(*) FILTER (WHERE verified AND category IN ('ai_assistant', 'ai_search', 'ai_training'))`,
      )}
    FROM edges GROUP BY path
    UNION ALL
    SELECT 'path', id, NULL, path, NULL, NULL, NULL${nullDetail} FROM analytics_paths WHERE project_id = $1 AND id > $2
    UNION ALL
    SELECT 'settings', coalesce((settings ->> 'analyticsCountAiCrawlersAsAi')::boolean, false)::integer,
      NULL, NULL, NULL, NULL, NULL${nullDetail}
    FROM projects WHERE id = $1`;
}

/** Orders strings by Unicode code point, as PostgreSQL's "C" collation orders UTF-8. */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    let a = left.charCodeAt(index);
    let b = right.charCodeAt(index);
    if (a === b) continue;
    // UTF-16 puts code points above U+FFFF (surrogates, D800-DFFF) before E000-FFFF.
    if (a >= 0xd800 && b >= 0xd800) {
      a = a >= 0xe000 ? a - 0x800 : a + 0x2000;
      b = b >= 0xe000 ? b - 0x800 : b + 0x2000;
    }
    return a - b;
  }
  return left.length - right.length;
}
