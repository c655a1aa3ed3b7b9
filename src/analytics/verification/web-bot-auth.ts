/**
 * Verification by Web Bot Auth: HTTP Message Signatures (RFC 9421,
 * https://www.rfc-editor.org/rfc/rfc9421) with the `web-bot-auth` tag, checked against the Ed25519 keys
 * the signer publishes in its key directory, `/.well-known/http-message-signatures-directory` on the
 * origin its `Signature-Agent` names
 * (https://datatracker.ietf.org/doc/draft-meunier-http-message-signatures-directory/). The signature
 * base, the tag, `created`/`expires` and the key id (a JWK thumbprint, RFC 7638) are checked by the
 * `web-bot-auth` package; keys are fetched with a timeout and a size limit, and cached.
 */
import { HTTP_MESSAGE_SIGNATURES_DIRECTORY, helpers, jwkToKeyID, verify } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { getText } from '../../net/get-text.ts';
import { signatureAgentHost } from '../classification/index.ts';

/** The key directory port: the keys an agent's origin publishes. A local HTTP double in tests. */
export interface KeyDirectory {
  keys(host: string): Promise<JsonWebKey[]>;
}

export interface SignedRequest {
  method: string;
  /** The request's authority (Host). */
  host: string;
  /** The request target as sent: path and query, or an absolute URL (its path and query are used). */
  target: string;
  headers: { signature?: string; 'signature-input'?: string; 'signature-agent'?: string };
}

const maximumDirectoryBytes = 64 * 1024;

/**
 * Fetches key directories over HTTPS, caching each origin's keys (and failures, for less time) so that
 * a burst of signed requests costs one fetch. The host comes from a request's `Signature-Agent`, which
 * anyone sends (a visitor of the site, through a drained log), so only public addresses are fetched
 * (src/net/get-text.ts), and at most `maximumFetches` at once: a batch of 1,000 events naming 1,000
 * made-up signers must not start 1,000 connections. A signer asked for beyond that is not verified
 * this time, and not remembered, so its next request tries again. `urlOf` maps a host to its
 * directory's base URL (tests point it at a local server, with `allowPrivateAddresses`).
 */
export function createHttpKeyDirectory(
  options: {
    timeoutMilliseconds?: number;
    cacheMilliseconds?: number;
    urlOf?: (host: string) => string;
    allowPrivateAddresses?: boolean;
    maximumFetches?: number;
    now?: () => number;
  } = {},
): KeyDirectory {
  const cacheMilliseconds = options.cacheMilliseconds ?? 60 * 60 * 1000;
  const maximumFetches = options.maximumFetches ?? 16;
  let fetching = 0;
  const now = options.now ?? Date.now;
  const urlOf = options.urlOf ?? ((host: string) => `https://${host}`);
  const cache = new Map<string, { until: number; keys: Promise<JsonWebKey[]> }>();
  async function fetchKeys(host: string): Promise<JsonWebKey[]> {
    const text = await getText(`${urlOf(host)}${HTTP_MESSAGE_SIGNATURES_DIRECTORY}`, {
      timeoutMilliseconds: options.timeoutMilliseconds ?? 2_000,
      maximumBytes: maximumDirectoryBytes,
      // The directory's media type (https://datatracker.ietf.org/doc/draft-meunier-webbotauth-httpsig-directory/).
      accept: 'application/http-message-signatures-directory+json, application/json;q=0.9',
      allowPrivateAddresses: options.allowPrivateAddresses ?? false,
    });
    const keys = (JSON.parse(text) as { keys?: unknown }).keys;
    if (!Array.isArray(keys)) throw new Error('key directory without keys');
    return keys.filter((key): key is JsonWebKey => typeof key === 'object' && key !== null);
  }
  return {
    keys(host) {
      const cached = cache.get(host);
      if (cached !== undefined && cached.until > now()) return cached.keys;
      if (fetching >= maximumFetches) {
        return Promise.reject(new Error(`${maximumFetches} key directories are being fetched already`));
      }
      fetching += 1;
      const keys = fetchKeys(host).finally(() => {
        fetching -= 1;
      });
      const entry = { until: now() + cacheMilliseconds, keys };
      // A failed fetch is remembered for a minute, not an hour: the agent may fix its directory.
      keys.catch(() => {
        entry.until = Math.min(entry.until, now() + 60_000);
      });
      if (cache.size >= 1_000) cache.delete(cache.keys().next().value as string);
      cache.set(host, entry);
      return keys;
    },
  };
}

/** True when the request carries a valid, unexpired Web Bot Auth signature by its Signature-Agent. */
export async function verifiedByWebBotAuth(
  directory: KeyDirectory,
  request: SignedRequest,
): Promise<boolean> {
  const { signature, 'signature-input': signatureInput, 'signature-agent': signatureAgent } = request.headers;
  const host = signatureAgentHost(signatureAgent);
  if (host === undefined || signature === undefined || signatureInput === undefined) return false;
  try {
    const keys = await directory.keys(host);
    const headers: Record<string, string> = {
      signature,
      'signature-input': signatureInput,
      'signature-agent': signatureAgent as string,
      host: request.host,
    };
    await verify(
      { method: request.method, url: `https://${request.host}${pathAndQuery(request.target)}`, headers },
      async (data, signatureBytes, parameters) => {
        for (const key of keys) {
          if (
            (await jwkToKeyID(key, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE)) !== parameters.keyid
          ) {
            continue;
          }
          const verifier = await verifierFromJWK(key);
          return verifier(data, signatureBytes, parameters);
        }
        throw new Error('no key of the directory has this key id');
      },
    );
    return true;
  } catch (error: unknown) {
    // A bad signature, an unknown key, an unreachable directory: claimed, not verified.
    if (error instanceof Error) return false;
    throw error;
  }
}

function pathAndQuery(target: string): string {
  if (target.startsWith('/')) return target;
  const url = URL.parse(target);
  return url === null ? target : `${url.pathname}${url.search}`;
}
