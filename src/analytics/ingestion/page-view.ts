/**
 * The pipeline every ingestion path ends in: a reported request (batch event, beacon, log line)
 * becomes a stored page view, or a reason why not. `invalid` means the input is bad (the batch
 * endpoint answers 400); `skipped` means it is fine but is no page view (an asset, a 404).
 */
import { type Classifier, prefersMarkdown, type TrafficCategory } from '../classification/index.ts';
import { normalizePath } from './normalize-path.ts';
import { judgePageRequest } from './page-request.ts';

export const maximumUserAgentLength = 2048;
export const maximumHeaderLength = 2048;
/** Views before this are rejected as nonsense; so are views more than a day in the future. */
export const earliestTimestamp = Date.UTC(2000, 0, 1);
const allowedClockSkewMilliseconds = 24 * 60 * 60 * 1000;

export interface ReportedRequest {
  target: string;
  occurredAt: number;
  userAgent: string | undefined;
  referrer: string | undefined;
  accept: string | undefined;
  status: number | undefined;
}

export interface PageView {
  path: string;
  occurredAt: number;
  category: TrafficCategory;
  agent: string | null;
  classifierVersion: string;
  /** Only the host of the referrer is kept. */
  referrerHost: string | null;
  markdown: boolean;
}

/** A view as the writer stores it. */
export interface StoredPageView extends PageView {
  /** `undefined`: the ingesting client did not report one. */
  userAgent: string | undefined;
  /** Log imports only: identifies the source line, so a re-run inserts nothing twice. */
  importKey?: Buffer;
}

export type PreparedPageView =
  | { ok: true; view: PageView }
  | { ok: false; kind: 'invalid' | 'skipped'; reason: string };

export interface PipelineDependencies {
  classifier: Classifier;
  now: number;
  /** Views before this (the retention cutoff) are skipped: their month's raw events are gone. */
  keepFrom?: number;
}

export function preparePageView(
  request: ReportedRequest,
  dependencies: PipelineDependencies,
): PreparedPageView {
  const path = normalizePath(request.target);
  if (!path.ok) return { ok: false, kind: 'invalid', reason: path.reason };
  const timeProblem = checkTimestamp(request.occurredAt, dependencies.now);
  if (timeProblem !== undefined) return { ok: false, kind: 'invalid', reason: timeProblem };
  for (const [name, value] of [
    ['userAgent', request.userAgent],
    ['referrer', request.referrer],
    ['accept', request.accept],
  ] as const) {
    const limit = name === 'userAgent' ? maximumUserAgentLength : maximumHeaderLength;
    if (value !== undefined && value.length > limit) {
      return { ok: false, kind: 'invalid', reason: `${name} is longer than ${limit} characters` };
    }
  }
  if (dependencies.keepFrom !== undefined && request.occurredAt < dependencies.keepFrom) {
    return { ok: false, kind: 'skipped', reason: 'older than the retention period' };
  }
  const verdict = judgePageRequest(path.path, request.status);
  if (!verdict.page) {
    return {
      ok: false,
      kind: 'skipped',
      reason: verdict.reason === 'asset' ? 'asset' : 'not a successful status',
    };
  }
  const markdown = path.markdown || prefersMarkdown(request.accept);
  const { category, agent } = dependencies.classifier.classify({ userAgent: request.userAgent, markdown });
  return {
    ok: true,
    view: {
      path: path.path,
      occurredAt: request.occurredAt,
      category,
      agent,
      classifierVersion: dependencies.classifier.version,
      referrerHost: referrerHost(request.referrer),
      markdown,
    },
  };
}

function checkTimestamp(occurredAt: number, now: number): string | undefined {
  if (!Number.isFinite(occurredAt)) return 'timestamp is not a valid time';
  if (occurredAt < earliestTimestamp) return 'timestamp is before 2000-01-01';
  if (occurredAt > now + allowedClockSkewMilliseconds) return 'timestamp is more than a day in the future';
  return undefined;
}

function referrerHost(referrer: string | undefined): string | null {
  if (referrer === undefined || referrer === '') return null;
  const url = URL.parse(referrer);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  return url.hostname.slice(0, 253) || null;
}
