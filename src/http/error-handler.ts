/**
 * The one place where errors become HTTP responses, for the API and the dashboard alike:
 * `{error, details?}` for every 4xx and 5xx, and `Retry-After` for a rate limit. Known errors keep
 * their message; anything else is logged with the request id and answered with a bare 500, so no
 * stack trace, SQL or path ever reaches a client.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type ErrorCode,
  type ErrorDetail,
  errorCode,
  isDatabaseUnavailable,
  isQuireError,
  propertyOf,
} from '../errors.ts';

const statusByCode: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  non_retriable: 500,
};

/** Fastify's own client errors, with messages written for API users. */
const fastifyMessages: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type; send application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty; send a JSON object',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_EMPTY_TYPE: 'Content-Type header is empty',
  FST_ERR_CTP_INVALID_TYPE: 'Content-Type header is invalid',
  FST_ERR_MAX_PARAM_LENGTH: 'A path segment is too long',
  FST_ERR_BAD_URL: 'The path is not valid percent-encoded UTF-8',
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: 'Content-Type header is missing',
};

/**
 * Error bodies list at most this many problems (and say how many there were): a 50 KB batch of bad
 * events must not answer with 362 KB.
 */
const maximumDetails = 20;
const maximumDetailCharacters = 300;

function capDetails(details: ErrorDetail[]): ErrorDetail[] {
  const shown = details.slice(0, maximumDetails).map((detail) => ({
    message:
      detail.message.length > maximumDetailCharacters
        ? `${detail.message.slice(0, maximumDetailCharacters)}…`
        : detail.message,
  }));
  if (details.length > maximumDetails) {
    shown.push({ message: `… and ${details.length - maximumDetails} more problems` });
  }
  return shown;
}

export interface ErrorBody {
  error: string;
  details?: ErrorDetail[];
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  /** For `Retry-After` (https://www.rfc-editor.org/rfc/rfc9110#name-retry-after): a rate limit's wait. */
  retryAfterSeconds: number | null;
}

/**
 * The answer to a request Node's HTTP parser refused (headers too large, a malformed request line
 * or an unknown method): still `{error}`, written to the socket because no request object exists.
 */
function clientErrorResponse(error: { code?: string }): { status: number; body: ErrorBody } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, body: { error: 'Request headers are too large' } };
    case 'HPE_INVALID_METHOD':
      return { status: 405, body: { error: 'The method is not supported' } };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, body: { error: 'The request took too long to arrive' } };
    default:
      return { status: 400, body: { error: 'Malformed HTTP request' } };
  }
}

/** Fastify's `clientErrorHandler`: answers `{error}` and closes the connection. */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has nobody to answer (https://nodejs.org/api/http.html#event-clienterror).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, body } = clientErrorResponse(error);
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send({ error: `No route for ${request.method} ${request.url.split('?')[0]}` } satisfies ErrorBody);
  });

  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const response = errorResponseOf(error);
    // Only the code is logged for an outage: a database error's detail can quote the statement's values.
    if (response.status === 503) request.log.warn({ code: errorCode(error) }, 'database unavailable');
    else if (response.status >= 500) request.log.error({ err: error }, 'request failed');
    applyErrorResponse(reply, response).send(response.body);
  });
}

/** How long a client should wait while the database is away (supervision restarts it in seconds). */
const databaseRetryAfterSeconds = 5;

/** Sets the reply's status and headers for an error response; the caller sends the body its way. */
export function applyErrorResponse(reply: FastifyReply, response: ErrorResponse): FastifyReply {
  if (response.retryAfterSeconds !== null) reply.header('retry-after', String(response.retryAfterSeconds));
  return reply.code(response.status);
}

/**
 * The status, `{error, details?}` body and `Retry-After` (429: the rate limit's wait; 503: the
 * database is away) for any thrown value; the dashboard renders the same as a page.
 */
export function errorResponseOf(error: unknown): ErrorResponse {
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: { error: 'The database is unavailable; try again shortly' },
      retryAfterSeconds: databaseRetryAfterSeconds,
    };
  }
  const { status, body } = statusAndBodyOf(error);
  const retryAfterSeconds =
    isQuireError(error) && error.code === 'rate_limited' ? propertyOf(error, 'retryAfterSeconds') : null;
  return {
    status,
    body,
    retryAfterSeconds: typeof retryAfterSeconds === 'number' ? retryAfterSeconds : null,
  };
}

function statusAndBodyOf(error: unknown): { status: number; body: ErrorBody } {
  if (isQuireError(error)) {
    const status = statusByCode[error.code];
    if (status >= 500) return { status: 500, body: { error: 'Internal server error' } };
    return {
      status,
      body: error.details
        ? { error: error.message, details: capDetails(error.details) }
        : { error: error.message },
    };
  }
  const fastifyError = error as Partial<FastifyError> & {
    validation?: { instancePath?: string; message?: string; params?: Record<string, unknown> }[];
  };
  if (Array.isArray(fastifyError.validation)) {
    const context = fastifyError.validationContext ?? 'request';
    return {
      status: 400,
      body: {
        error: `Invalid ${context}`,
        details: capDetails(
          fastifyError.validation.map((problem) => ({ message: describeProblem(context, problem) })),
        ),
      },
    };
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return { status: 400, body: { error: 'Request body is not valid JSON' } };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message = (fastifyError.code && fastifyMessages[fastifyError.code]) ?? 'Bad request';
    return { status, body: { error: message } };
  }
  return { status: 500, body: { error: 'Internal server error' } };
}

function describeProblem(
  context: string,
  problem: { instancePath?: string; message?: string; params?: Record<string, unknown> },
): string {
  const where = `${context}${(problem.instancePath ?? '').replaceAll('/', '.')}`;
  const additional = problem.params?.additionalProperty;
  if (typeof additional === 'string') return `${where} has an unknown property "${additional}"`;
  const missing = problem.params?.missingProperty;
  if (typeof missing === 'string') return `${where}.${missing} is required`;
  return `${where} ${problem.message ?? 'is invalid'}`;
}
