/**
 * The JSON body parser: Fastify's own (which refuses `__proto__` and `constructor.prototype` keys),
 * fed only bodies that are valid UTF-8. Decoding without `fatal` would silently turn invalid bytes
 * into U+FFFD and store text the client never sent.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { InvalidInputError } from '../errors.ts';
import { arrayElements, lastNonWhitespace, wholeTextBytes } from '../json-array-elements.ts';

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

/**
 * A large body of the batch endpoint's shape, `{"events": [{...}, ...]}` (any one simple key), read
 * element by element (json-array-elements.ts: one string of a 190 KB batch cost more than parsing
 * it); `undefined` for any other body, which the default parser then reads. Only plain text takes
 * this way: valid UTF-8 with no backslash and no DEL, so no escape can spell a key, and without
 * `__proto__` or `constructor` anywhere, the keys the default parser refuses.
 */
export function singleArrayBody(body: Buffer): Record<string, unknown[]> | undefined {
  if (body.length <= wholeTextBytes || !isUtf8(body) || !isPlainBytes(body)) return undefined;
  if (body.includes('__proto__') || body.includes('constructor')) return undefined;
  // JSON's whitespace only (not `\s`, which also takes a form feed JSON.parse refuses).
  const prefix = /^[ \t\n\r]*\{[ \t\n\r]*"([A-Za-z_][A-Za-z0-9_]{0,63})"[ \t\n\r]*:[ \t\n\r]*\[/.exec(
    body.toString('latin1', 0, 128),
  );
  if (prefix === null) return undefined;
  const closeBrace = lastNonWhitespace(body);
  if (body[closeBrace] !== 0x7d) return undefined;
  const elements = arrayElements(body, prefix[0].length - 1, lastNonWhitespace(body, closeBrace));
  return elements === undefined ? undefined : { [prefix[1] as string]: elements };
}

function isPlainBytes(body: Buffer): boolean {
  return !body.includes(0x5c) && !body.includes(0x7f);
}

export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const elements = singleArrayBody(body as Buffer);
    if (elements !== undefined) {
      plainBodies.add(elements);
      done(null, elements);
      return;
    }
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
