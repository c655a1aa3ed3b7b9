/**
 * Webhook receivers for code hosts: `POST /v1/hooks/{projectId}/github` and `.../gitlab`. No API key:
 * each delivery is verified with the project's hook secret over the raw body, so these routes parse
 * JSON themselves (inside this plugin only).
 */
import { Type } from '@fastify/type-provider-typebox';
import type { HookProvider } from '../../automations/hooks/hook-service.ts';
import type { App, RouteRegistrar } from '../app.ts';
import { errorResponses, ProjectIdParameter } from '../schemas.ts';

/** GitHub caps payloads at 25 MB; push and pull-request payloads are far smaller. Past this: 413. */
const hookBodyLimit = 5 * 1024 * 1024;

const descriptions: Record<HookProvider, string> = {
  github:
    "GitHub webhook (content type application/json): `pull_request` (closed and merged) and `push` events, and comments on Quire's pull requests (`issue_comment`, `pull_request_review_comment`, `pull_request_review`), verified with X-Hub-Signature-256 against the project hook secret and deduplicated by X-GitHub-Delivery. Stored before the 2xx and processed through the queue; other events are acknowledged and ignored.",
  gitlab:
    "GitLab webhook: merge request events (merged), push events and comment events (`Note Hook`: a note on one of Quire's merge requests from someone with the Developer role or above becomes a follow-up, answered with a note when its run ends), verified with X-Gitlab-Token against the project hook secret and deduplicated by the Idempotency-Key GitLab keeps across retries. Stored before the 2xx; other events are acknowledged and ignored.",
};

export const registerHookRoutes: RouteRegistrar = async (app, { hooks }) => {
  await app.register(async (scope) => {
    const plugin = scope as App;
    plugin.removeContentTypeParser('application/json');
    plugin.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: hookBodyLimit },
      (_request, body, done) => done(null, body),
    );
    for (const provider of ['github', 'gitlab'] as const) {
      plugin.post(
        `/v1/hooks/:projectId/${provider}`,
        {
          bodyLimit: hookBodyLimit,
          schema: {
            tags: ['automations'],
            summary: `Receive a ${provider === 'github' ? 'GitHub' : 'GitLab'} webhook`,
            description: descriptions[provider],
            params: Type.Object({ projectId: ProjectIdParameter }),
            response: {
              202: Type.Object({
                outcome: Type.Union([
                  Type.Literal('stored'),
                  Type.Literal('duplicate'),
                  Type.Literal('ignored'),
                ]),
              }),
              ...errorResponses(400, 401, 413, 415),
            },
          },
        },
        async (request, reply) => {
          const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const receipt = await hooks.receive({
            provider,
            projectId: request.params.projectId,
            headers: request.headers,
            rawBody,
          });
          return reply.code(202).send(receipt);
        },
      );
    }
  });
};
