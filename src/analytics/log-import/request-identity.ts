/**
 * A view's identity comes from the request it records, never from where it sits in a file, so
 * overlapping, rotated, concatenated and re-read logs store each request once:
 *  - a request the provider names (Cloudflare `RayID`, Vercel and Netlify request ids) is that
 *    name, so a drained request and the same request imported later from a file are one view;
 *  - any other request is its logged fields (time, client address, method, host, target, status,
 *    user agent, referrer) plus its occurrence: the n-th identical request in a source is
 *    occurrence n. Two identical requests in the same second are two views; a file read again, or
 *    a later file that repeats some of its lines, gives those lines the same occurrences again.
 * The identity is 16 bytes of SHA-256, kept as 32 lower-case hex digits and stored as the view's
 * `import_key` (bytea, unique per project and time, migrations 0004 and 0024).
 */
import { hash } from 'node:crypto';
import type { LoggedRequest } from './logged-request.ts';

/**
 * Within one source, a request logged this much earlier than the latest one starts a new segment
 * (counts begin again): it is where one file of a concatenation ends and an earlier one begins,
 * and that earlier file's lines must get the occurrences they get when imported on their own.
 * Smaller reorderings (Apache logs the time a request started, so a slow request's line comes
 * after quicker, later ones) keep counting. A break taken for a slow request costs little: only
 * identical requests in the same second on both sides of it are then taken for one.
 */
const segmentBreakMilliseconds = 5_000;
/** Counts are kept this far behind the latest time seen, so memory stays bounded on any file. */
const countWindowMilliseconds = 10 * 60_000;

/** Gives each request of one source (a file, a drained batch) its identity. */
export function createRequestIdentifier() {
  /** Per second (in arrival order), the occurrences seen of each request's fields hash. */
  const counts = new Map<number, Map<string, number>>();
  let latest = Number.NEGATIVE_INFINITY;
  const forget = (before: number) => {
    // Seconds arrive nearly in order, so the oldest are first; one out of order waits its turn.
    for (const second of counts.keys()) {
      if (second >= before) break;
      counts.delete(second);
    }
  };
  return {
    /**
     * The request's identity, computed when first asked for: one the provider names needs no
     * counting, so an entry that turns out to be no page view (an asset, a runtime log line) is
     * never hashed; any other request is counted now, in arrival order, view or not.
     */
    identityOf(request: LoggedRequest): () => string {
      const { requestId } = request;
      if (requestId !== undefined) return () => identity(`id\n${requestId}`);
      const key = countedIdentity(request);
      return () => key;
    },
  };

  function countedIdentity(request: LoggedRequest): string {
    if (request.occurredAt < latest - segmentBreakMilliseconds) {
      counts.clear();
      latest = request.occurredAt;
    } else if (request.occurredAt > latest) {
      latest = request.occurredAt;
      forget(Math.floor((latest - countWindowMilliseconds) / 1000));
    }
    // The digest's bytes as Latin-1 characters ('binary'): a string key for the counts, and the same bytes
    // as before in the identity below (stored keys must not change).
    const fields = hash('sha256', requestFields(request), 'binary');
    const second = Math.floor(request.occurredAt / 1000);
    let sameSecond = counts.get(second);
    if (sameSecond === undefined) {
      sameSecond = new Map();
      counts.set(second, sameSecond);
    }
    const occurrence = (sameSecond.get(fields) ?? 0) + 1;
    sameSecond.set(fields, occurrence);
    return identity(Buffer.from(`${fields}\n${occurrence}`, 'latin1'));
  }
}
export type RequestIdentifier = ReturnType<typeof createRequestIdentifier>;

/**
 * The first 16 bytes of the SHA-256 of `data`, in hex, with the one-shot hash: a drain identifies
 * every view, and a Hash object per view cost it a tenth of its time. Hex, not a Buffer: a digest
 * returned as a Buffer gets a backing store of its own, which took twice as long as hashing into a
 * string and kept the garbage collector busier (`node bench/request-identity.ts` measures both), and the
 * key goes to PostgreSQL as hex anyway.
 */
function identity(data: string | Buffer): string {
  return hash('sha256', data, 'hex').slice(0, 32);
}

/** The fields that tell two logged requests apart, joined with a separator no field contains. */
function requestFields(request: LoggedRequest): string {
  return [
    request.occurredAt,
    request.ip ?? '',
    request.method,
    request.host ?? '',
    request.target,
    request.status ?? '',
    request.userAgent ?? '\u0001',
    request.referrer ?? '',
  ].join('\u0000');
}
