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
    const key = await dependencies.apiKeys.authenticate(request.headers.authorization);
    const projectId = (request.params as { projectId?: string }).projectId ?? '';
    authorize(key, projectId, scope);
    if (!keyAllowsAddress(key, request.ip)) {
      throw new ForbiddenError('This API key may not be used from this address');
    }
    request.apiKey = key;
  });
}
