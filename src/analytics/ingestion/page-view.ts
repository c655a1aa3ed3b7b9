/**
 * The pipeline every ingestion path ends in: a reported request (batch event, beacon, log line)
 * becomes a stored page view, or a reason why not. `invalid` means the input is bad (the batch
 * endpoint answers 400); `skipped` means it is fine but is no page view (an asset, a 404).
 */
import {
  aiReferrerOf,
  type Classifier,
  prefersMarkdown,
  signatureAgentHost,
  type TrafficCategory,
} from '../classification/index.ts';
import { normalizePath } from './normalize-path.ts';
import { judgePageRequest, type PageRequestVerdict } from './page-request.ts';
import type { SignalHeaders } from './request-signals.ts';

const skipReasons: Record<Extract<PageRequestVerdict, { page: false }>['reason'], string> = {
  asset: 'asset',
  status: 'not a successful status',
  method: 'not a GET or HEAD request',
};

export const maximumUserAgentLength = 2048;
export const maximumHeaderLength = 2048;
/** Views before this are rejected as nonsense; so are views more than a day in the future. */
const earliestTimestamp = Date.UTC(2000, 0, 1);
const allowedClockSkewMilliseconds = 24 * 60 * 60 * 1000;

export interface ReportedRequest {
  target: string;
  occurredAt: number;
  userAgent: string | undefined;
  referrer: string | undefined;
  accept: string | undefined;
  status: number | undefined;
  /** `GET`, `HEAD`, ...; `undefined`: not reported (counted as a GET). */
  method?: string | undefined;
  /** The request's Host (authority), when reported. */
  host?: string | undefined;
  /** Further request headers classification reads; the named fields above win over them. */
  headers?: SignalHeaders | undefined;
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
  /** The host a Web Bot Auth `Signature-Agent` named (kept so reclassification sees it); absent: none. */
  signatureAgent?: string | null;
  /** Its agent was verified (published addresses, reverse DNS, Web Bot Auth); absent: not verified. */
  verified?: boolean;
  /** A person sent by an AI answer: the assistant (`ChatGPT`), from the referrer or `utm_source`. */
  aiReferrer?: string | null;
}

/** A view as the writer stores it. */
export interface StoredPageView extends PageView {
  /** `undefined`: the ingesting client did not report one. */
  userAgent: string | undefined;
  /** Log imports and drains: the identity of the logged request (request-identity.ts: 32 lower-case
   *  hex digits), so nothing is stored twice. */
  importKey?: string;
  /** The client's IP address, for the visitor identity only: never stored. */
  address?: string | undefined;
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
  const verdict = judgePageRequest(path.path, request.status, request.method);
  if (!verdict.page) {
    return {
      ok: false,
      kind: 'skipped',
      reason: skipReasons[verdict.reason],
    };
  }
  const headers = request.headers ?? {};
  const userAgent = request.userAgent ?? headers['user-agent'];
  const markdown = path.markdown || prefersMarkdown(request.accept ?? headers.accept);
  const signatureAgent = signatureAgentHost(headers['signature-agent']);
  const host = referrerHost(request.referrer ?? headers.referer);
  const { category, agent } = dependencies.classifier.classify({
    userAgent,
    markdown,
    signatureAgent: headers['signature-agent'],
  });
  return {
    ok: true,
    view: {
      path: path.path,
      occurredAt: request.occurredAt,
      category,
      agent,
      classifierVersion: dependencies.classifier.version,
      referrerHost: host,
      markdown,
      ...(signatureAgent === undefined ? {} : { signatureAgent }),
      ...(category === 'human' ? aiReferrerField(host, request.target) : {}),
    },
  };
}

function aiReferrerField(host: string | null, target: string): { aiReferrer?: string } {
  const assistant = aiReferrerOf(host, target);
  return assistant === null ? {} : { aiReferrer: assistant };
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
