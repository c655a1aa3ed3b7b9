/**
 * One request read from a server or CDN log (a file line or a drained entry), before it is judged
 * as a page view. Every log parser produces this shape, so imports and drains apply the same
 * pipeline whatever the format.
 */
import type { SignalHeaders } from '../ingestion/index.ts';

export interface LoggedRequest {
  method: string;
  /** The request target as logged: a path with query, or a full URL. Not yet normalised. */
  target: string;
  status: number | undefined;
  occurredAt: number;
  userAgent: string | undefined;
  referrer: string | undefined;
  accept: string | undefined;
  /** The client's address as logged; part of the request's identity, never stored. */
  ip?: string | undefined;
  /** The requested host (`vhost_combined`, CDN logs). */
  host?: string | undefined;
  /**
   * The provider's own id for this request (Cloudflare `RayID`, Vercel `requestId`, Netlify
   * `request_id`), prefixed with the provider: when present it alone is the request's identity.
   */
  requestId?: string | undefined;
  /**
   * Request headers the log carries beyond the fields above, from the batch endpoint's allow-list
   * (lower-case names: `accept`, `signature-agent`, `signature-input`, `signature`, `from`,
   * `sec-ch-ua`, ...; Cloudflare's `RequestHeaders`). Classification reads them as it reads a batch
   * event's `headers`, and verification checks Web Bot Auth signatures with them; never stored.
   */
  headers?: SignalHeaders | undefined;
  /**
   * Cloudflare's `VerifiedBotCategory`: Cloudflare verified the client as a bot of this kind
   * (verification/cloudflare-verified-bot.ts).
   */
  verifiedBotCategory?: string | undefined;
}

/** Why a line was not imported; the import summary counts lines per reason. */
export type LogLineResult = { ok: true; request: LoggedRequest } | { ok: false; reason: string };
