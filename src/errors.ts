/**
 * Typed domain errors with stable codes. Domain code throws these; the HTTP layer alone maps them
 * to status codes and `{error, details?}` bodies (src/http/error-handler.ts), and the job runner
 * uses `NonRetriableError` to decide that retrying is pointless.
 */

export type ErrorCode =
  | 'invalid_input'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'rate_limited'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'non_retriable';

export interface ErrorDetail {
  message: string;
}

export class QuireError extends Error {
  /** A stable marker that survives module duplication (`instanceof` may not). */
  readonly isQuireError = true;
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;

  constructor(code: ErrorCode, message: string, options?: { details?: ErrorDetail[]; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options?.details;
  }
}

export class InvalidInputError extends QuireError {
  constructor(message: string, details?: ErrorDetail[]) {
    super('invalid_input', message, details === undefined ? undefined : { details });
  }
}

export class UnauthorizedError extends QuireError {
  constructor(message = 'Missing or invalid API key') {
    super('unauthorized', message);
  }
}

export class ForbiddenError extends QuireError {
  constructor(message = 'This API key does not grant access to this project or operation') {
    super('forbidden', message);
  }
}

export class NotFoundError extends QuireError {
  constructor(message: string) {
    super('not_found', message);
  }
}

export class MethodNotAllowedError extends QuireError {
  constructor(method: string) {
    super('method_not_allowed', `The method ${method} is not supported`);
  }
}

export class ConflictError extends QuireError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class RateLimitedError extends QuireError {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super('rate_limited', message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class PayloadTooLargeError extends QuireError {
  constructor(message: string) {
    super('payload_too_large', message);
  }
}

/** A failure that will not go away by trying again (bad credentials, missing configuration, ...). */
export class NonRetriableError extends QuireError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('non_retriable', message, options);
  }
}

export function isQuireError(error: unknown): error is QuireError {
  return (
    typeof error === 'object' && error !== null && (error as { isQuireError?: unknown }).isQuireError === true
  );
}

/** A property of any thrown value, or `undefined` when it is no object or has no such property. */
export function propertyOf(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || !(key in value)) return undefined;
  return (value as Record<string, unknown>)[key];
}

/**
 * The string `code` of a thrown value: a Node.js system error's (`EEXIST`,
 * https://nodejs.org/api/errors.html#errorcode) or PostgreSQL's SQLSTATE as pg reports it
 * (https://www.postgresql.org/docs/current/errcodes-appendix.html); `undefined` for anything else.
 */
export function errorCode(error: unknown): string | undefined {
  const code = propertyOf(error, 'code');
  return typeof code === 'string' ? code : undefined;
}

/**
 * True when the database cannot be reached or is going away: the request may succeed if tried again
 * shortly (503), unlike a bug (500). Codes: Node's socket errors, node-postgres's pool timeout and
 * ended connections, and PostgreSQL's class 08 (connection exception) and 57P01-57P03 (shutdown,
 * crash shutdown, cannot connect now), https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = errorCode(error);
  if (code !== undefined) {
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN'].includes(code))
      return true;
    if (/^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03'].includes(code)) return true;
  }
  const message = error instanceof Error ? error.message : '';
  return /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(
    message,
  );
}

/** A message safe to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
