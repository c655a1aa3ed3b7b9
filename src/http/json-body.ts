/**
 * The JSON body parser: Fastify's own (which refuses `__proto__` and `constructor.prototype` keys),
 * fed only bodies that are valid UTF-8. Decoding without `fatal` would silently turn invalid bytes
 * into U+FFFD and store text the client never sent.
 */
import type { FastifyInstance } from 'fastify';
import { InvalidInputError } from '../errors.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of a body, or a 400 when it is not valid UTF-8. */
export function decodeUtf8Body(body: Buffer): string {
  try {
    return strictUtf8.decode(body);
  } catch {
    throw new InvalidInputError('Request body is not valid UTF-8');
  }
}

export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = decodeUtf8Body(body as Buffer);
    } catch (error: unknown) {
      done(error as Error, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
