/**
 * What the service's log says of a request. Fastify's own serializer writes the whole URL, query
 * string and all, and some senders can pass a credential only there: Netlify's log drain carries
 * the API key as `?key=` (routes/analytics-drains.ts), and Cloudflare's Logpush turns `header_*`
 * parameters into headers (https://developers.cloudflare.com/logs/logpush/logpush-job/enable-destinations/http/),
 * so a destination URL may hold `header_Authorization`. Their values are written as `[redacted]`.
 * No header is logged, and routes that the site's visitors call themselves (the browser tracker's
 * script and beacon, `config: { visitors: true }`) log no client address: the analytics promise
 * that a visitor's address is used in memory and stored nowhere (docs/analytics.md).
 *
 *   redactedUrl('/v1/analytics/p/drains/netlify?key=quire_abc&x=1') // '...?key=[redacted]&x=1'
 */
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Called by the site's visitors' browsers: their address is not logged. */
    visitors?: boolean;
  }
}

/** A `key` or `header_*` query parameter (any case), up to the next parameter or fragment. */
const credentialParameter = /([?&](?:key|header_[^=&#]*)=)[^&#]*/gi;

export function redactedUrl(url: string): string {
  return url.replace(credentialParameter, '$1[redacted]');
}

/** Fastify's request serializer (lib/logger-pino.js), with the URL's credentials redacted. */
export function loggedRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    version: request.headers['accept-version'],
    host: request.host,
    remoteAddress: request.routeOptions.config?.visitors === true ? undefined : request.ip,
    remotePort: request.socket?.remotePort,
  };
}
