/** The opaque cursor of job lists: the last job's creation time and id, base64url. */
import { InvalidInputError } from '../errors.ts';

export function encodeJobCursor(position: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
}

export function decodeJobCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const date = new Date(createdAt);
    if (typeof id !== 'string' || Number.isNaN(date.getTime())) throw new Error('bad cursor');
    return { createdAt: date, id };
  } catch {
    throw new InvalidInputError('Invalid cursor', [
      { message: 'querystring.cursor is not a cursor this API returned' },
    ]);
  }
}
