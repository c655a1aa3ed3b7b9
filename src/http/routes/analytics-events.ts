import { Type } from '@fastify/type-provider-typebox';
import type { AnalyticsServices } from '../../analytics/ingestion/index.ts';
import {
  ingestEvents,
  maximumHeaderLength,
  maximumRawPathLength,
  maximumSignalHeaderLength,
  maximumUserAgentLength,
  signalHeaderNames,
} from '../../analytics/ingestion/index.ts';
import { retentionCutoff } from '../../analytics/rollups/index.ts';
import type { App } from '../app.ts';
import { isPlainJsonBody } from '../json-body.ts';
import { bearerSecurity, errorResponses, ProjectIdParameter } from '../schemas.ts';

const maximumEventsPerBatch = 1000;

const IncomingEventSchema = Type.Object(
  {
    path: Type.String({
      minLength: 1,
      maxLength: maximumRawPathLength,
      description: 'The page: a path (`/docs/intro?x=1`) or a full URL; normalised before it is stored',
    }),
    timestamp: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Integer({ minimum: 0 })], {
        description: 'ISO 8601 date-time with Z or an offset, or epoch milliseconds; default: now',
      }),
    ),
    userAgent: Type.Optional(Type.String({ maxLength: maximumUserAgentLength })),
    ip: Type.Optional(Type.String({ maxLength: 64, description: 'Validated, never stored' })),
    referrer: Type.Optional(Type.String({ maxLength: maximumHeaderLength })),
    accept: Type.Optional(Type.String({ maxLength: maximumHeaderLength, description: 'The Accept header' })),
    status: Type.Optional(
      Type.Integer({ minimum: 100, maximum: 599, description: 'Only 2xx and 304 count as views' }),
    ),
    method: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{1,16}$',
        description: 'The request method; only GET and HEAD count as views. Default: GET',
      }),
    ),
    host: Type.Optional(
      Type.String({
        maxLength: 260,
        pattern: '^(?:[A-Za-z0-9.-]{1,253}|\\[[0-9A-Fa-f:.]{2,45}\\])(?::[0-9]{1,5})?$',
        description: 'The Host header (authority) the request was sent to',
      }),
    ),
    headers: Type.Optional(
      Type.Object(
        Object.fromEntries(
          signalHeaderNames.map((name) => [
            name,
            Type.Optional(Type.String({ maxLength: maximumSignalHeaderLength })),
          ]),
        ),
        {
          additionalProperties: false,
          description:
            'Request headers classification reads, by lower-case name: Accept, Signature-Agent, Signature-Input and Signature (Web Bot Auth), From, Sec-CH-UA, User-Agent, Referer. `userAgent`, `referrer` and `accept` win over the same headers here. Any other name is refused.',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export function registerAnalyticsEventRoutes(app: App, services: AnalyticsServices): void {
  app.post(
    '/v1/analytics/:projectId/events',
    {
      config: { scope: 'ingest' },
      // 1,000 events with long URLs and user agents fit; a 10 MB body does not.
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags: ['analytics'],
        summary: 'Ingest a batch of page views',
        description:
          'All events valid or 400 with one detail per bad event, and nothing stored. 202 once the batch is committed.',
        security: bearerSecurity,
        params: Type.Object({ projectId: ProjectIdParameter }),
        body: Type.Object(
          { events: Type.Array(IncomingEventSchema, { minItems: 1, maxItems: maximumEventsPerBatch }) },
          { additionalProperties: false },
        ),
        response: {
          202: Type.Object({
            accepted: Type.Integer({ description: 'Page views stored' }),
            skipped: Type.Integer({
              description:
                'Valid events that are no page view (assets, errors, older than the retention period)',
            }),
          }),
          ...errorResponses(400, 401, 403, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const now = Date.now();
      const result = await ingestEvents(
        {
          classifier: services.classifier,
          verifier: services.verifier,
          writer: services.writer,
          now,
          keepFrom: retentionCutoff(now, services.retentionMonths),
        },
        request.params.projectId,
        request.body.events,
        { plainText: isPlainJsonBody(request.body) },
      );
      return reply.code(202).send(result);
    },
  );
}
