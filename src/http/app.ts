/**
 * Builds the HTTP application (no listener: tests inject requests, `main` listens). Everything it
 * needs is passed in; each area adds its routes through a `RouteRegistrar`.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import { RateLimitedError } from '../errors.ts';
import { newId } from '../ids.ts';
import { installAuthentication } from './authentication.ts';
import { type BodyMemory, createBodyMemory, installBodyMemory } from './body-memory.ts';
import type { HttpDependencies } from './dependencies.ts';
import { answerClientError, errorResponseOf, installErrorHandlers } from './error-handler.ts';
import { checkRequestText } from './input-rules.ts';
import { createJobEventStreams, type JobEventStreams, type StreamLimits } from './job-event-stream.ts';
import { installJsonBodyParser } from './json-body.ts';
import { installMethodCheck } from './method-check.ts';
import { installRateLimiting } from './rate-limiting.ts';
import { loggedRequest } from './request-log.ts';
import { optionalDefaults, withFrameworkErrors } from './schemas.ts';
import { createValidatorCompiler } from './validation.ts';

export type App = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export type RouteRegistrar = (app: App, dependencies: HttpDependencies) => void | Promise<void>;

export interface AppOptions {
  /** Pino options, or false for silence (tests). */
  logger?: FastifyServerOptions['logger'];
  /** Default 1 MiB; routes may set their own. */
  bodyLimit?: number;
  version?: string;
  /** Open event streams per owner and per process (tests lower them). */
  streamLimits?: StreamLimits;
  /** How long a request waits for the request bodies' memory budget before its 429 (default 10 s). */
  bodyMemoryWaitMilliseconds?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobEventStreams: JobEventStreams;
    /** The memory of request bodies being received and handled (body-memory.ts). */
    bodyMemory: BodyMemory;
  }
}

export async function buildApp(
  dependencies: HttpDependencies,
  registrars: RouteRegistrar[],
  options: AppOptions = {},
): Promise<App> {
  const app = Fastify({
    logger:
      typeof options.logger === 'object' && options.logger !== null
        ? { ...options.logger, serializers: { ...options.logger.serializers, req: loggedRequest } }
        : (options.logger ?? false),
    // `request.ip` is the client's address: `X-Forwarded-For` is believed only from these proxies.
    trustProxy:
      dependencies.config.trustedProxies.length > 0 ? [...dependencies.config.trustedProxies] : false,
    // Errors the router raises before any route (a path segment over 100 characters: 414; a path
    // that is not valid percent-encoded UTF-8: 400) go through the same mapping as the rest.
    frameworkErrors: (error, _request, reply) => {
      const { status, body } = errorResponseOf(error);
      (reply as FastifyReply).code(status).send(body);
    },
    clientErrorHandler: answerClientError,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    genReqId: () => newId('req'),
    // Client-supplied request ids would let anyone write into our logs; we make our own.
    requestIdHeader: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // The whole request (headers and body) within a minute: a body that stalls would otherwise hold
    // its share of the request bodies' budget (body-memory.ts) for good. Node's own default is five
    // minutes; Fastify's is none.
    requestTimeout: 60_000,
    ajv: undefined,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Every open connection holds a file descriptor and some memory whether it sends anything or not:
  // past the limit, a new one is closed as it arrives (Node's `server.maxConnections`), so a flood
  // of idle sockets cannot take the descriptors the database pool, git and the logs need.
  app.server.maxConnections = dependencies.config.maxConnections;
  app.setValidatorCompiler(createValidatorCompiler());
  // The API speaks JSON only; a route that needs another body type registers its own parser
  // inside its own plugin (encapsulated).
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);
  installErrorHandlers(app);
  installMethodCheck(app);
  app.addHook('onRoute', (route) => {
    route.schema = withFrameworkErrors(optionalDefaults(route.schema));
  });
  // After authentication (onRequest) and body parsing, before schema validation: every route of
  // every area, the dashboard's included, inherits the rule.
  app.addHook('preValidation', async (request) => checkRequestText(request));
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // One set of live streams per process, shared by the API and the dashboard (limits, fan-out).
  app.decorate('jobEventStreams', createJobEventStreams(app, dependencies.jobEvents, options.streamLimits));
  installAuthentication(app, dependencies);
  installRateLimiting(app, dependencies);
  // After authentication and rate limits: a request refused by them reserves nothing.
  app.decorate(
    'bodyMemory',
    createBodyMemory({
      limitBytes: dependencies.config.requestMemoryMegabytes * 1024 * 1024,
      maximumWaitMilliseconds: options.bodyMemoryWaitMilliseconds ?? 10_000,
      busy: () =>
        new RateLimitedError('The server is busy receiving other requests; send this one again shortly', 5),
    }),
  );
  installBodyMemory(app, app.bodyMemory);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire API',
        version: options.version ?? '0.1.0',
        description:
          'Agent jobs that edit a documentation repository and open a pull request, and page-view analytics split into human and AI traffic.',
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key: `quire_` followed by 43 characters',
          },
        },
      },
    },
  });

  for (const register of registrars) await register(app, dependencies);
  return app;
}
