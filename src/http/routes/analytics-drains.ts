/**
 * Live log drains: `POST /v1/analytics/{projectId}/drains/vercel|cloudflare|netlify` take a
 * provider's batch in its documented format (raw body: JSON array or JSON lines, gzip or not) and
 * store one page view per request, idempotently under the provider's retries. Authenticated like
 * the batch endpoint (a key with the `ingest` or `write` scope, `Authorization: Bearer`, set as
 * the drain's custom header; Netlify's general HTTP endpoint can only set its URL, so there the
 * key may come as `?key=`), plus Vercel's signature when the project has the drain's secret.
 */
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import {
  type DrainProvider,
  drainProviders,
  ingestDrain,
  isValidVercelSignature,
} from '../../analytics/drains/index.ts';
import type { AnalyticsServices } from '../../analytics/ingestion/index.ts';
import { retentionCutoff } from '../../analytics/rollups/index.ts';
import { drainSettingsOf } from '../../analytics/settings/index.ts';
import { ForbiddenError, NotFoundError } from '../../errors.ts';
import type { ProjectService } from '../../projects/project-service.ts';
import type { App } from '../app.ts';
import { bearerSecurity, errorResponses, ProjectIdParameter } from '../schemas.ts';

/** Compressed body size: Cloudflare sends up to about 5 MB of logs per batch, gzipped. */
const drainBodyLimit = 16 * 1024 * 1024;

const documentation: Record<DrainProvider, string> = {
  vercel:
    'A Vercel log drain (https://vercel.com/docs/drains/reference/logs), `json` (array) or `ndjson` delivery. Only entries with `proxy` (requests) count, one view per `requestId`; build and runtime lines are skipped. With the drain secret set (`quire analytics settings --vercel-drain-secret`), `x-vercel-signature` must match. Responses carry `x-vercel-verify` once the verification code is set.',
  cloudflare:
    'Cloudflare Logpush to an HTTP destination (https://developers.cloudflare.com/logs/get-started/enable-destinations/http/), dataset `http_requests`, gzipped JSON lines; one view per `RayID`. Logged `RequestHeaders` (custom fields: accept, signature-agent, signature-input, signature) and `VerifiedBotCategory` classify and verify the view. The destination check (`{"content":"tests"}`) is answered with 200.',
  netlify:
    'A Netlify log drain to a general HTTP endpoint (https://docs.netlify.com/manage/monitoring/log-drains/), JSON or NDJSON; traffic records only, one view per `request_id`.',
};

export function registerAnalyticsDrainRoutes(
  app: App,
  projects: ProjectService,
  services: AnalyticsServices,
): void {
  async function drainSettings(projectId: string) {
    const project = await projects.find(projectId);
    // The key was checked for this project already; a project deleted since is simply gone.
    if (project === null) throw new NotFoundError('No such project');
    return drainSettingsOf(project.settings);
  }

  function withVerifyCode(reply: FastifyReply, code: string | null): void {
    if (code !== null) reply.header('x-vercel-verify', code);
  }

  app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>();
    // Providers send JSON, NDJSON or gzip under various content types (Cloudflare's varies): the
    // body is read as bytes and its format told from its content.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: drainBodyLimit },
      (_request, body, done) => done(null, body),
    );

    // Vercel checks a new drain's URL for `x-vercel-verify`; the code is Vercel's public
    // ownership proof, not a credential, so this answer needs no key.
    scope.get(
      '/v1/analytics/:projectId/drains/vercel',
      {
        schema: {
          tags: ['analytics'],
          summary: "Answer Vercel's drain verification",
          description:
            "Responds with the `x-vercel-verify` header set to the project's Vercel verification code.",
          params: Type.Object({ projectId: ProjectIdParameter }),
          response: { 200: Type.Object({ verified: Type.Boolean() }), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const project = await projects.find(request.params.projectId);
        const code = project === null ? null : drainSettingsOf(project.settings).vercelVerifyCode;
        if (code === null) throw new NotFoundError('No Vercel drain is set up for this project');
        withVerifyCode(reply, code);
        return { verified: true };
      },
    );

    for (const provider of drainProviders) {
      scope.post(
        `/v1/analytics/:projectId/drains/${provider}`,
        {
          config: { scope: 'ingest', apiKeyInQuery: provider === 'netlify' },
          bodyLimit: drainBodyLimit,
          schema: {
            tags: ['analytics'],
            summary: `Receive a ${provider === 'cloudflare' ? 'Cloudflare Logpush' : provider === 'vercel' ? 'Vercel' : 'Netlify'} log drain batch`,
            description: documentation[provider],
            security: bearerSecurity,
            params: Type.Object({ projectId: ProjectIdParameter }),
            ...(provider === 'netlify'
              ? {
                  querystring: Type.Object({
                    key: Type.Optional(
                      Type.String({
                        maxLength: 200,
                        description: 'The API key, for senders that cannot set a header',
                      }),
                    ),
                  }),
                }
              : {}),
            response: {
              200: Type.Object({
                accepted: Type.Integer({ description: 'Page views stored' }),
                alreadyStored: Type.Integer({
                  description: 'Requests stored before (a retried batch) or repeated in this one',
                }),
                skipped: Type.Integer({
                  description: 'Entries that are no page view (runtime logs, assets, errors) or unreadable',
                }),
              }),
              ...errorResponses(400, 401, 403, 413, 429),
            },
          },
        },
        async (request, reply) => {
          const projectId = request.params.projectId;
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          if (provider === 'vercel') {
            const settings = await drainSettings(projectId);
            withVerifyCode(reply, settings.vercelVerifyCode);
            if (settings.vercelSecret !== null) {
              const signature = request.headers['x-vercel-signature'];
              if (
                !isValidVercelSignature(
                  body,
                  projects.openSecret(settings.vercelSecret),
                  typeof signature === 'string' ? signature : undefined,
                )
              ) {
                throw new ForbiddenError(
                  'The x-vercel-signature header does not match the body and the drain secret',
                );
              }
            }
          }
          const now = Date.now();
          const result = await ingestDrain(
            {
              classifier: services.classifier,
              writer: services.writer,
              verifier: services.verifier,
              memory: services.drainMemory,
              now,
              keepFrom: retentionCutoff(now, services.retentionMonths),
            },
            projectId,
            provider,
            body,
          );
          return reply.code(200).send(result);
        },
      );
    }
  });
}
