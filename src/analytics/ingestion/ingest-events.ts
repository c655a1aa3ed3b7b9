/**
 * The batch endpoint's use case (DESIGN.md §4): every event valid or the whole batch is refused
 * with one detail per bad event; accepted views are committed before this resolves.
 */
import { isIP } from 'node:net';
import { InvalidInputError } from '../../errors.ts';
import { parseInstant } from '../reports/index.ts';
import type { StoredPageView } from './insert-page-views.ts';
import { type PipelineDependencies, preparePageView } from './page-view.ts';
import type { PageViewWriter } from './page-view-writer.ts';

/** One event as the API receives it (already shape-checked by the route schema). */
export interface IncomingEvent {
  path: string;
  timestamp?: string | number;
  userAgent?: string;
  ip?: string;
  referrer?: string;
  accept?: string;
  status?: number;
}

export interface IngestResult {
  /** Page views stored. */
  accepted: number;
  /** Valid events that are no page view (assets, unsuccessful statuses, past retention). */
  skipped: number;
}

export async function ingestEvents(
  dependencies: PipelineDependencies & { writer: PageViewWriter },
  projectId: string,
  events: readonly IncomingEvent[],
): Promise<IngestResult> {
  const views: StoredPageView[] = [];
  const problems: string[] = [];
  let skipped = 0;
  events.forEach((event, index) => {
    const occurredAt = eventTime(event.timestamp, dependencies.now);
    if (occurredAt === undefined) {
      problems.push(
        `events[${index}].timestamp must be an ISO 8601 date-time with Z or an offset, or epoch milliseconds`,
      );
      return;
    }
    if (event.ip !== undefined && isIP(event.ip) === 0) {
      problems.push(`events[${index}].ip is not an IPv4 or IPv6 address`);
      return;
    }
    const prepared = preparePageView(
      {
        target: event.path,
        occurredAt,
        userAgent: event.userAgent,
        referrer: event.referrer,
        accept: event.accept,
        status: event.status,
      },
      dependencies,
    );
    if (prepared.ok) {
      // The address only identifies the visitor (visitor-identity.ts); it is never stored.
      views.push({ ...prepared.view, userAgent: event.userAgent, address: event.ip });
    } else if (prepared.kind === 'skipped') skipped += 1;
    else problems.push(`events[${index}]: ${prepared.reason}`);
  });
  if (problems.length > 0) {
    throw new InvalidInputError(
      `${problems.length} of ${events.length} events are invalid; nothing was stored`,
      problems.map((message) => ({ message })),
    );
  }
  await dependencies.writer.write(projectId, views);
  return { accepted: views.length, skipped };
}

function eventTime(timestamp: string | number | undefined, now: number): number | undefined {
  if (timestamp === undefined) return now;
  if (typeof timestamp === 'number') return Number.isSafeInteger(timestamp) ? timestamp : undefined;
  // A bare date would be midnight: too coarse for a page view, and most likely a mistake.
  if (!timestamp.includes('T') && !timestamp.includes('t')) return undefined;
  const parsed = parseInstant(timestamp);
  return parsed.ok ? parsed.epochMilliseconds : undefined;
}
