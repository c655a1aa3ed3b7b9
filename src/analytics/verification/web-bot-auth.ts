/**
 * Verification by Web Bot Auth: HTTP Message Signatures (RFC 9421,
 * https://www.rfc-editor.org/rfc/rfc9421) with the `web-bot-auth` tag, checked against the Ed25519 keys
 * the signer publishes in its key directory, `/.well-known/http-message-signatures-directory` on the
 * origin its `Signature-Agent` names
 * (https://datatracker.ietf.org/doc/draft-meunier-http-message-signatures-directory/). The signature
 * base is built and checked by `http-message-sig` (a `Signature-Agent` sent as a dictionary member,
 * `"signature-agent";key="agent1"`, as the current architecture draft writes it, included); this
 * file sets the policy: Ed25519, the tag, `created` and `expires`, the authority and the
 * `Signature-Agent` covered, and a key id that is the JWK thumbprint (RFC 7638) of a key the
 * directory publishes. Keys are fetched with a timeout and a size limit, and cached.
 */
import { isSignatureError, verifySignature, webcrypto } from 'http-message-sig';
import { parseDictionary } from 'structured-headers';
import { HTTP_MESSAGE_SIGNATURES_DIRECTORY, helpers, jwkToKeyID } from 'web-bot-auth';
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

/** Seconds a signer's clock may run ahead of ours or a signature may have expired by. */
const clockSkewSeconds = 60;

/** True when the request carries a valid, unexpired Web Bot Auth signature by its Signature-Agent. */
export async function verifiedByWebBotAuth(
  directory: KeyDirectory,
  request: SignedRequest,
): Promise<boolean> {
  const { signature, 'signature-input': signatureInput, 'signature-agent': signatureAgent } = request.headers;
  const host = signatureAgentHost(signatureAgent);
  if (host === undefined || signature === undefined || signatureInput === undefined) return false;
  const message = {
    kind: 'request' as const,
    method: request.method,
    targetUri: `https://${request.host}${pathAndQuery(request.target)}`,
    fields: [
      { name: 'signature', value: signature },
      { name: 'signature-input', value: signatureInput },
      { name: 'signature-agent', value: signatureAgent as string },
      { name: 'host', value: request.host },
    ],
  };
  try {
    const keys = await directory.keys(host);
    // A request may carry several signatures (a CDN's beside the agent's): any one with the tag will do.
    for (const label of signatureLabels(signatureInput)) {
      try {
        await verifySignature(message, {
          label,
          policy: {
            algorithms: ['ed25519'],
            requiredComponents: ['@authority'],
            requiredParameters: ['created', 'expires', 'keyid', 'tag'],
            clockSkew: clockSkewSeconds,
            // The signer named in Signature-Agent is the one whose keys were fetched: it must be signed.
            validate: (verified) =>
              verified.parameters.tag === 'web-bot-auth' &&
              verified.components.some((component) => component.name === 'signature-agent'),
          },
          resolveVerifier: async (candidate) =>
            webcrypto.verifier(await keyWithId(keys, candidate.parameters.keyid)),
        });
        return true;
      } catch (error: unknown) {
        if (!isSignatureError(error)) throw error;
      }
    }
    return false;
  } catch (error: unknown) {
    // A malformed field, an unreachable directory: claimed, not verified.
    if (error instanceof Error) return false;
    throw error;
  }
}

/** The labels of a `Signature-Input` dictionary; none when it is not one. */
function signatureLabels(signatureInput: string): string[] {
  try {
    return [...parseDictionary(signatureInput).keys()];
  } catch {
    return [];
  }
}

/** The directory's Ed25519 key whose JWK thumbprint is `keyid`, ready to verify with. */
async function keyWithId(keys: readonly JsonWebKey[], keyid: string | undefined): Promise<CryptoKey> {
  for (const key of keys) {
    if (key.kty !== 'OKP' || key.crv !== 'Ed25519') continue;
    if ((await jwkToKeyID(key, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE)) !== keyid) continue;
    const { d: _private, ...publicKey } = key;
    return crypto.subtle.importKey('jwk', publicKey, { name: 'Ed25519' }, false, ['verify']);
  }
  throw new Error('no Ed25519 key of the directory has this key id');
}

function pathAndQuery(target: string): string {
  if (target.startsWith('/')) return target;
  const url = URL.parse(target);
  return url === null ? target : `${url.pathname}${url.search}`;
}
