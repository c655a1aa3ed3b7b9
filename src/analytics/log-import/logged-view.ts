/**
 * A logged request (file line or drained entry) to a stored page view, or the reason it is none.
 * Shared by log import and the drains, so both judge requests the same way.
 */
import { isIP } from 'node:net';
import type { PipelineDependencies, SignalHeaderName, StoredPageView } from '../ingestion/index.ts';
import { maximumSignalHeaderLength, preparePageView } from '../ingestion/index.ts';
import type { LoggedRequest } from './logged-request.ts';

/** Where in the pipeline a request was dropped; the import summary lists reasons in this order. */
export type SkipStage = 'read' | 'format' | 'parse' | 'request' | 'invalid' | 'not a page view';
export const skipStages: readonly SkipStage[] = [
  'read',
  'format',
  'parse',
  'request',
  'invalid',
  'not a page view',
];

export type LoggedViewResult =
  | { ok: true; view: StoredPageView }
  | { ok: false; stage: SkipStage; reason: string };

// C0 controls and DEL: a log line never carries them in a field legitimately, and an attacker
// who puts one in a User-Agent must not get it stored or echoed.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const controlCharacter = /[\u0000-\u001f\u007f]/;

export function viewOfLoggedRequest(
  request: LoggedRequest,
  /** The request's identity (request-identity.ts), asked for only when the request is a view. */
  importKey: () => string,
  dependencies: PipelineDependencies,
  /** `plainText`: the caller knows no field holds a control character (a drain whose JSON text
   *  holds no escape sequence or DEL, as for the batch endpoint), so they are not searched again. */
  options: { plainText?: boolean } = {},
): LoggedViewResult {
  if (options.plainText !== true && hasControlCharacter(request))
    return { ok: false, stage: 'request', reason: 'control characters in a field' };
  if (request.method !== 'GET') return { ok: false, stage: 'request', reason: 'not a GET request' };
  const longHeader = longSignalHeader(request);
  if (longHeader !== undefined) {
    return {
      ok: false,
      stage: 'invalid',
      reason: `invalid: the ${longHeader} header is longer than ${maximumSignalHeaderLength} characters`,
    };
  }
  const prepared = preparePageView(request, dependencies);
  if (!prepared.ok) {
    return prepared.kind === 'skipped'
      ? { ok: false, stage: 'not a page view', reason: prepared.reason }
      : { ok: false, stage: 'invalid', reason: `invalid: ${prepared.reason}` };
  }
  const address = visitorAddressOf(request);
  return {
    ok: true,
    view: {
      ...prepared.view,
      userAgent: request.userAgent,
      importKey: importKey(),
      // The address only identifies the visitor (visitor-identity.ts); it is never stored.
      ...(address === undefined ? {} : { address }),
    },
  };
}

/**
 * The client address that identifies the request's visitor: the logged one when it is an IP
 * address. `$remote_addr` / `%h` hold a host name where Apache resolves them (HostnameLookups), and
 * such a request counts as a view only.
 */
export function visitorAddressOf(request: LoggedRequest): string | undefined {
  return request.ip !== undefined && isIP(request.ip) !== 0 ? request.ip : undefined;
}

function hasControlCharacter(request: LoggedRequest): boolean {
  for (const value of [
    request.method,
    request.target,
    request.userAgent,
    request.referrer,
    request.accept,
    request.host,
    request.ip,
  ]) {
    if (value !== undefined && controlCharacter.test(value)) return true;
  }
  const { headers } = request;
  if (headers !== undefined) {
    for (const name of Object.keys(headers) as SignalHeaderName[]) {
      const value = headers[name];
      if (controlCharacter.test(name) || (value !== undefined && controlCharacter.test(value))) return true;
    }
  }
  return false;
}

/** The name of a signal header over the batch endpoint's length limit, if any. */
function longSignalHeader(request: LoggedRequest): string | undefined {
  const { headers } = request;
  if (headers === undefined) return undefined;
  for (const name of Object.keys(headers) as SignalHeaderName[]) {
    const value = headers[name];
    if (value !== undefined && value.length > maximumSignalHeaderLength) return name;
  }
  return undefined;
}
