/**
 * A GET of a small text document from an address someone else chose, with the limits such a fetch
 * needs: only public addresses (literal or resolved, see safe-address.ts) unless allowed, no
 * redirects, a timeout for the whole exchange, and a size limit read as the body arrives.
 *
 *   const text = await getText('https://example.com/.well-known/x', { timeoutMilliseconds: 2_000, maximumBytes: 65_536 });
 */
import http from 'node:http';
import https from 'node:https';
import { publicOnlyLookup, refusePrivateLiteral } from './safe-address.ts';

export interface GetTextOptions {
  timeoutMilliseconds: number;
  maximumBytes: number;
  /** The `Accept` header; default any type. */
  accept?: string;
  /** Allow loopback and private addresses (tests' local doubles). */
  allowPrivateAddresses?: boolean;
}

/** The body of a 2xx answer as UTF-8 text; rejects on anything else. */
export async function getText(url: string, options: GetTextOptions): Promise<string> {
  const target = new URL(url);
  if (target.protocol !== 'https:' && target.protocol !== 'http:') {
    throw new Error(`Refusing to fetch a ${target.protocol} URL`);
  }
  if (!options.allowPrivateAddresses) refusePrivateLiteral(target);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<string>((resolve, reject) => {
    const request = client.get(
      target,
      {
        headers: { accept: options.accept ?? '*/*', 'user-agent': 'Quire/1' },
        signal: AbortSignal.timeout(options.timeoutMilliseconds),
        ...(options.allowPrivateAddresses ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          response.resume();
          reject(new Error(`${target.host} answered ${status}`));
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > options.maximumBytes) {
            request.destroy(new Error(`${target.host} sent more than ${options.maximumBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}
