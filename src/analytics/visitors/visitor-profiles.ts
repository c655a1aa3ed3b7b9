/**
 * Visitor profiles (migration 0023): the classification inputs of the views a mark counts (user
 * agent, Markdown flag, Web Bot Auth signer), numbered per database, so that reclassification can
 * tell which marks to move (visitor-reclassification.ts). A batch has a handful of them.
 */
import type { Queryable } from '../../db/database.ts';

export interface VisitorProfileKey {
  /** `analytics_user_agents.id`, as decimal text; null: no user agent. */
  userAgentId: string | null;
  markdown: boolean;
  signatureAgent: string | null;
}

const keyOf = (profile: VisitorProfileKey) =>
  `${profile.userAgentId ?? ''}\n${profile.markdown}\n${profile.signatureAgent ?? '\n'}`;

/**
 * The id of each profile (in the caller's transaction), made where missing. Two statements: the
 * select after the insert sees a profile another writer committed while the insert waited for it.
 */
export async function visitorProfileIds(
  db: Queryable,
  projectId: string,
  profiles: readonly VisitorProfileKey[],
): Promise<number[]> {
  // In one order, so that concurrent writers adding the same new profiles wait, never deadlock.
  const distinct = [...new Map(profiles.map((profile) => [keyOf(profile), profile])).values()].sort(
    (left, right) => (keyOf(left) < keyOf(right) ? -1 : keyOf(left) > keyOf(right) ? 1 : 0),
  );
  const values = [
    projectId,
    distinct.map((profile) => profile.userAgentId ?? '0'),
    distinct.map((profile) => profile.markdown),
    distinct.map((profile) => profile.signatureAgent ?? ''),
  ];
  await db.query({
    name: 'analytics-insert-visitor-profiles',
    text: `INSERT INTO analytics_visitor_profiles (project_id, user_agent_id, markdown, signature_agent)
           SELECT $1, user_agent_id, markdown, signature_agent
           FROM unnest($2::bigint[], $3::boolean[], $4::text[]) WITH ORDINALITY AS wanted
             (user_agent_id, markdown, signature_agent, number)
           ORDER BY number
           ON CONFLICT DO NOTHING`,
    values,
  });
  const found = await db.query<{ id: number; number: number }>({
    name: 'analytics-visitor-profile-ids',
    text: `SELECT profile.id, wanted.number::integer AS number
           FROM unnest($2::bigint[], $3::boolean[], $4::text[]) WITH ORDINALITY AS wanted
             (user_agent_id, markdown, signature_agent, number)
           JOIN analytics_visitor_profiles AS profile ON profile.project_id = $1
             AND profile.user_agent_id = wanted.user_agent_id AND profile.markdown = wanted.markdown
             AND profile.signature_agent = wanted.signature_agent`,
    values,
  });
  const ids = new Map<string, number>();
  for (const row of found.rows) ids.set(keyOf(distinct[row.number - 1] as VisitorProfileKey), row.id);
  return profiles.map((profile) => {
    const id = ids.get(keyOf(profile));
    if (id === undefined) throw new Error('A visitor profile has no id');
    return id;
  });
}
