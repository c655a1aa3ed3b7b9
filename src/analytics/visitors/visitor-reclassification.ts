/**
 * Moves visitors with their views when `quire analytics reclassify` changes the category of a
 * profile (user agent, Markdown flag, signer; visitor-profiles.ts): every mark of that profile
 * takes its new group (bots' marks are kept in a group no count includes, so a bot that becomes a
 * person or an agent gains its visitors), and the days those marks fall in are counted again from
 * all their marks, which are the exact visitors of their hours. Marks of an unknown profile
 * (written before migration 0023) stay where they are, and bots' views stored before bots had
 * marks have none to move.
 */
import type pg from 'pg';
import { advisoryLockKeys } from '../../db/advisory-locks.ts';
import type { TrafficCategory } from '../classification/index.ts';
import { rollupSeriesOf } from '../storage/index.ts';
import {
  decodeVisitorMarks,
  encodeVisitorMarks,
  type HourMark,
  markAsVisitor,
  markGroupOf,
} from './visitor-marks.ts';
import { forgetPackedVisitorDays } from './visitor-packing.ts';
import type { VisitorProfileKey } from './visitor-profiles.ts';
import type { VisitorMark } from './visitor-rollups.ts';

const hourMilliseconds = 3_600_000;
const dayMilliseconds = 86_400_000;
/** Mark rows read at a time. */
const rowsPerRead = 500;

/**
 * SQL: takes the visitor folding lock of every project in scope (`$1`, null: all), in id order,
 * before the packing locks (the order folders take them in), so no mark is folded or compacted
 * while reclassification rewrites them.
 */
export const visitorFoldingLocksSql = `
  SELECT pg_advisory_xact_lock(${advisoryLockKeys.visitorFolding}, hashtext(id))
  FROM (SELECT id FROM projects WHERE $1::text IS NULL OR id = $1 ORDER BY id) AS affected`;

/**
 * In a transaction that holds the folding locks (`visitorFoldingLocksSql`) and the packing locks
 * (shared, as a folder takes them) of the projects in scope: gives the marks of every profile in
 * `classified` their new group, makes the days they fall in pending again (their day rows and
 * packed rows deleted), and returns how many marks changed group. Folding then counts those days
 * again.
 */
export async function reclassifyVisitorMarks(
  client: pg.PoolClient,
  projectId: string | null,
  classified: ReadonlyArray<VisitorProfileKey & { category: TrafficCategory }>,
): Promise<number> {
  const profiles = await client.query<{ id: number; category: TrafficCategory }>(
    `SELECT profile.id, fresh.category
     FROM unnest($2::bigint[], $3::boolean[], $4::text[], $5::text[]) AS fresh (user_agent_id, markdown, signature_agent, category)
     JOIN analytics_visitor_profiles AS profile ON profile.user_agent_id = fresh.user_agent_id
       AND profile.markdown = fresh.markdown AND profile.signature_agent = fresh.signature_agent
     WHERE $1::text IS NULL OR profile.project_id = $1`,
    [
      projectId,
      classified.map((profile) => profile.userAgentId ?? '0'),
      classified.map((profile) => profile.markdown),
      classified.map((profile) => profile.signatureAgent ?? ''),
      classified.map((profile) => profile.category),
    ],
  );
  // The new group of each profile's marks.
  const groups = new Map<number, number>();
  for (const row of profiles.rows) groups.set(row.id, markGroupOf(row.category));
  if (groups.size === 0) return 0;

  let moved = 0;
  /** By project: the days whose marks changed. */
  const changedDays = new Map<string, Set<number>>();
  for (let after = '0'; ; ) {
    const rows = await client.query<{ id: string; project_id: string; state: number; marks: Buffer }>(
      `SELECT id::text, project_id, state, marks FROM analytics_visitor_marks
       WHERE ($1::text IS NULL OR project_id = $1) AND id > $2::bigint ORDER BY id LIMIT $3`,
      [projectId, after, rowsPerRead],
    );
    if (rows.rows.length === 0) break;
    after = (rows.rows.at(-1) as { id: string }).id;
    for (const row of rows.rows) {
      const marks: VisitorMark[] = [];
      let changed = false;
      const visit = (mark: HourMark) => {
        const group = groups.get(mark.profile) ?? mark.group;
        if (group !== mark.group) {
          changed = true;
          moved += 1;
          const days = changedDays.get(row.project_id) ?? new Set<number>();
          days.add(Math.floor((mark.hour * hourMilliseconds) / dayMilliseconds) * dayMilliseconds);
          changedDays.set(row.project_id, days);
        }
        marks.push(markAsVisitor(mark, group));
      };
      decodeVisitorMarks(row.marks, visit, { bots: true });
      if (!changed) continue;
      // Compacted rows stay sorted and distinct; the others keep their hour order. Every mark is
      // kept (a bot's too), so a changed row is never empty.
      const encoded = encodeVisitorMarks(marks, { distinct: row.state === 2 });
      if (encoded === null) throw new Error('A changed row of visitor marks has no marks');
      await client.query('UPDATE analytics_visitor_marks SET marks = $2 WHERE id = $1::bigint', [
        row.id,
        encoded.bytes,
      ]);
    }
  }

  for (const [project, daySet] of changedDays) {
    const days = [...daySet];
    const starts = days.map((day) => new Date(day));
    // Counted again from all their marks: those pending again, the old day rows gone.
    await client.query(
      `UPDATE analytics_visitor_marks AS marks SET state = 0
       FROM unnest($2::timestamptz[]) AS day (start)
       WHERE marks.project_id = $1 AND marks.last_hour >= day.start
         AND marks.first_hour < day.start + interval '1 day'`,
      [project, starts],
    );
    const series = await rollupSeriesOf(client, project);
    await client.query(
      'DELETE FROM analytics_visitor_rollups WHERE series = $1 AND bucket = ANY($2::timestamptz[])',
      [series.day, starts],
    );
    await forgetPackedVisitorDays(client, project, days);
  }
  return moved;
}
