/**
 * Authentication for every route that declares a scope in its config:
 * `app.get('/v1/x/:projectId', { config: { scope: 'read' } }, handler)`. It runs on `onRequest`,
 * before the body is read or validated, so an unauthenticated caller learns nothing else.
 */
import { type ApiKey, keyAllowsAddress, type Scope } from '../auth/api-key.ts';
import { authorize } from '../auth/authenticate.ts';
import { ForbiddenError } from '../errors.ts';
import type { App } from './app.ts';
import type { HttpDependencies } from './dependencies.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a key needs for this route; routes without one are public. */
    scope?: Scope;
    /**
     * Also accept the key as `?key=` when no Authorization header is sent: only for senders that
     * can set nothing but a URL (Netlify's log drains). Keys in URLs reach access logs, so users
     * are told to use an `ingest`-only key there.
     */
    apiKeyInQuery?: boolean;
  }
  interface FastifyRequest {
    apiKey: ApiKey | null;
  }
}

export function installAuthentication(app: App, dependencies: HttpDependencies): void {
  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request) => {
    const scope = request.routeOptions.config.scope;
    if (scope === undefined) return;
    let authorization = request.headers.authorization;
    if (authorization === undefined && request.routeOptions.config.apiKeyInQuery === true) {
      const queryKey = (request.query as { key?: unknown }).key;
      if (typeof queryKey === 'string') authorization = `Bearer ${queryKey}`;
    }
    const key = await dependencies.apiKeys.authenticate(authorization);
    const projectId = (request.params as { projectId?: string }).projectId ?? '';
    authorize(key, projectId, scope);
    if (!keyAllowsAddress(key, request.ip)) {
      throw new ForbiddenError('This API key may not be used from this address');
    }
    request.apiKey = key;
  });
}
