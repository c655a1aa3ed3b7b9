/**
 * One request read from a server or CDN log, before it is judged as a page view. Every log parser
 * produces this shape, so the import applies the same pipeline whatever the format.
 */
export interface LoggedRequest {
  method: string;
  /** The request target as logged: a path with query, or a full URL. Not yet normalised. */
  target: string;
  status: number | undefined;
  occurredAt: number;
  userAgent: string | undefined;
  referrer: string | undefined;
  accept: string | undefined;
  /** The client's IP address when the log has a valid one: identifies the visitor, never stored. */
  address: string | undefined;
}

/** Why a line was not imported; the import summary counts lines per reason. */
export type LogLineResult = { ok: true; request: LoggedRequest } | { ok: false; reason: string };
