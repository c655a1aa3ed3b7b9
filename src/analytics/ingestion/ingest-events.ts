/**
 * The batch endpoint's use case (DESIGN.md §4): every event valid or the whole batch is refused
 * with one detail per bad event; accepted views are committed before this resolves.
 */
import { isIP } from 'node:net';
import { InvalidInputError } from '../../errors.ts';
import { parseInstant } from '../reports/index.ts';
import type { AgentVerifier } from '../verification/index.ts';
import type { StoredPageView } from './page-view.ts';
import { type PipelineDependencies, preparePageView } from './page-view.ts';
import type { PageViewWriter } from './page-view-writer.ts';
import { containsControlCharacter, type SignalHeaders } from './request-signals.ts';

/** One event as the API receives it (already shape-checked by the route schema). */
export interface IncomingEvent {
  path: string;
  timestamp?: string | number;
  userAgent?: string;
  ip?: string;
  referrer?: string;
  accept?: string;
  status?: number;
  /** The request's method; only GET and HEAD are page views. */
  method?: string;
  /** The request's Host header. */
  host?: string;
  /** Request headers classification reads (lower-case names from `signalHeaderNames`). */
  headers?: SignalHeaders;
}

export interface IngestResult {
  /** Page views stored. */
  accepted: number;
  /** Valid events that are no page view (assets, unsuccessful statuses, past retention). */
  skipped: number;
}

export async function ingestEvents(
  dependencies: PipelineDependencies & { writer: PageViewWriter; verifier?: AgentVerifier },
  projectId: string,
  events: readonly IncomingEvent[],
  /** `plainText`: the caller knows no string of the events holds a control character (the HTTP
   *  layer, for a JSON body without escape sequences), so they are not searched for one again. */
  options: { plainText?: boolean } = {},
): Promise<IngestResult> {
  const views: StoredPageView[] = [];
  const verifications: Array<Promise<void>> = [];
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
    const controlled = options.plainText === true ? undefined : fieldWithControlCharacter(event);
    if (controlled !== undefined) {
      problems.push(`events[${index}].${controlled} contains a control character`);
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
        method: event.method,
        host: event.host,
        headers: event.headers,
      },
      dependencies,
    );
    if (prepared.ok) {
      const view: StoredPageView = {
        ...prepared.view,
        userAgent: event.userAgent ?? event.headers?.['user-agent'],
        // The address only identifies the visitor (visitor-identity.ts); it is never stored.
        address: event.ip,
      };
      views.push(view);
      const { verifier } = dependencies;
      // People are never verified; agents and bots that can be are checked concurrently, before the
      // batch is written.
      if (verifier !== undefined && view.category !== 'human') {
        const claim = {
          agent: view.agent,
          ip: event.ip,
          method: event.method,
          host: event.host,
          target: event.path,
          headers: event.headers ?? {},
        };
        if (verifier.canVerify(claim)) {
          const verdict = verifier.verify(claim);
          if (typeof verdict === 'boolean') view.verified = verdict;
          else {
            verifications.push(
              verdict.then((verified) => {
                view.verified = verified;
              }),
            );
          }
        }
      }
    } else if (prepared.kind === 'skipped') skipped += 1;
    else problems.push(`events[${index}]: ${prepared.reason}`);
  });
  if (problems.length > 0) {
    throw new InvalidInputError(
      `${problems.length} of ${events.length} events are invalid; nothing was stored`,
      problems.map((message) => ({ message })),
    );
  }
  await Promise.all(verifications);
  await dependencies.writer.write(projectId, views);
  return { accepted: views.length, skipped };
}

/** The first field (`userAgent`, `headers.signature`) whose text holds a control character. */
function fieldWithControlCharacter(event: IncomingEvent): string | undefined {
  for (const name of ['path', 'userAgent', 'ip', 'referrer', 'accept', 'method', 'host'] as const) {
    const value = event[name];
    if (value !== undefined && containsControlCharacter(value)) return name;
  }
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (typeof value === 'string' && containsControlCharacter(value)) return `headers.${name}`;
  }
  if (typeof event.timestamp === 'string' && containsControlCharacter(event.timestamp)) return 'timestamp';
  return undefined;
}

function eventTime(timestamp: string | number | undefined, now: number): number | undefined {
  if (timestamp === undefined) return now;
  if (typeof timestamp === 'number') return Number.isSafeInteger(timestamp) ? timestamp : undefined;
  // A bare date would be midnight: too coarse for a page view, and most likely a mistake.
  if (!timestamp.includes('T') && !timestamp.includes('t')) return undefined;
  const parsed = parseInstant(timestamp);
  return parsed.ok ? parsed.epochMilliseconds : undefined;
}
