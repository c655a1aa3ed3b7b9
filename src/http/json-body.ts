/**
 * The JSON body parser: Fastify's own (which refuses `__proto__` and `constructor.prototype` keys),
 * fed only bodies that are valid UTF-8. Decoding without `fatal` would silently turn invalid bytes
 * into U+FFFD and store text the client never sent.
 */
import type { FastifyInstance } from 'fastify';
import { InvalidInputError } from '../errors.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Parsed bodies whose JSON text held no backslash and no DEL. JSON strings cannot hold a raw C0
 * control character, and text decoded from UTF-8 cannot hold a lone surrogate, so only an escape
 * sequence can put either into one of their strings (field names included): the text rules have
 * nothing to find in them, and skipping the walk saves the batch endpoint a tenth of its time.
 */
const plainBodies = new WeakSet<object>();

/** Whether `body` is a parsed JSON body whose strings hold no control character, DEL or lone surrogate. */
export function isPlainJsonBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && plainBodies.has(body);
}

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
    const plain = !text.includes('\\') && !text.includes('\u007f');
    parseJson(request, text, (error, parsed) => {
      if (!error && plain && typeof parsed === 'object' && parsed !== null) plainBodies.add(parsed);
      done(error, parsed);
    });
  });
}
