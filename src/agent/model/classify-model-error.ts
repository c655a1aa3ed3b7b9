import { APICallError } from 'ai';
import { errorMessage, NonRetriableError } from '../../errors.ts';

/**
 * Turns a failed model call (after the AI SDK's own retries) into an error the job can show: a
 * rejected key or an unknown model cannot be fixed by retrying; a 5xx or a network error can.
 * Messages carry the provider's status and message, never request bodies or headers.
 */
export function classifyModelError(error: unknown): Error {
  const apiError = APICallError.isInstance(error)
    ? error
    : (error as { lastError?: unknown })?.lastError !== undefined &&
        APICallError.isInstance((error as { lastError: unknown }).lastError)
      ? (error as { lastError: APICallError }).lastError
      : null;
  if (apiError !== null) {
    const status = apiError.statusCode;
    const detail = `${status === undefined ? '' : `HTTP ${status}: `}${apiError.message}`.slice(0, 500);
    if (status === 401 || status === 403)
      return new NonRetriableError(`The model provider rejected the credentials (${detail})`);
    if (
      status !== undefined &&
      status >= 400 &&
      status < 500 &&
      status !== 408 &&
      status !== 409 &&
      status !== 429
    ) {
      return new NonRetriableError(`The model provider refused the request (${detail})`);
    }
    return new Error(`The model call failed after retries (${detail})`);
  }
  return new Error(`The model call failed: ${errorMessage(error).slice(0, 500)}`);
}
