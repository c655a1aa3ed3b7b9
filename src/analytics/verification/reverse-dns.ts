/**
 * Verification by forward-confirmed reverse DNS, for operators that document it (Google:
 * https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot, Bing:
 * https://www.bing.com/webmasters/help/how-to-verify-bingbot-3905dc26, Apple:
 * https://support.apple.com/en-us/119829, Amazon: https://developer.amazon.com/amazonbot): the
 * address's PTR name must end in the operator's domain, and that name must resolve back to the address.
 */
import { Resolver } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** The resolver port: tests use a fake, production `createDnsResolver`. */
export interface ReverseDnsResolver {
  /** PTR names of an address. */
  reverse(address: string): Promise<string[]>;
  /** A and AAAA addresses of a name. */
  lookup(hostname: string): Promise<string[]>;
}

/**
 * Host name suffixes per agent, from each operator's documentation (links above). Google's common
 * crawlers (Googlebot, GoogleOther, Google-CloudVertexBot) resolve to `googlebot.com` names, its
 * special-case crawlers and its own user-triggered fetchers and agents (Google-Agent, Gemini Notebook:
 * https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers) to
 * `google-proxy-*.google.com` ones, which only Google can name. Never `googleusercontent.com`: Google gives
 * that domain to its customers' machines (`*.bc.googleusercontent.com` for every Compute Engine
 * address, forward-confirmed), and its `gae.` names are fetchers run by code of Google Cloud's
 * users, so anyone renting a virtual machine would pass for Googlebot.
 */
export const reverseDnsSuffixes: Readonly<Record<string, readonly string[]>> = {
  googlebot: ['.googlebot.com', '.google.com'],
  googleother: ['.googlebot.com', '.google.com'],
  'googleother-image': ['.googlebot.com', '.google.com'],
  'googleother-video': ['.googlebot.com', '.google.com'],
  'google-cloudvertexbot': ['.googlebot.com', '.google.com'],
  'google-agent': ['.google.com'],
  'google-gemininotebook': ['.google.com'],
  'google-notebooklm': ['.google.com'],
  bingbot: ['.search.msn.com'],
  applebot: ['.applebot.apple.com'],
  amazonbot: ['.crawl.amazonbot.amazon'],
};

/** A Node resolver with a per-query timeout and one try: verification must never hold ingestion up. */
export function createDnsResolver(options: { timeoutMilliseconds?: number } = {}): ReverseDnsResolver {
  const resolver = new Resolver({ timeout: options.timeoutMilliseconds ?? 1_000, tries: 1 });
  return {
    reverse: (address) => resolver.reverse(address),
    async lookup(hostname) {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      return [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    },
  };
}

/** Forward-confirmed reverse DNS: false on any failure or timeout. */
export async function verifiedByReverseDns(
  resolver: ReverseDnsResolver,
  address: string,
  suffixes: readonly string[],
): Promise<boolean> {
  try {
    for (const name of await resolver.reverse(address)) {
      const host = name.toLowerCase().replace(/\.$/, '');
      if (!suffixes.some((suffix) => host.endsWith(suffix))) continue;
      const addresses = await resolver.lookup(host);
      if (addresses.some((candidate) => sameAddress(candidate, address))) return true;
    }
  } catch (error: unknown) {
    // NXDOMAIN, timeouts, refused: not verified. Nothing of the error reaches a client.
    if (error instanceof Error) return false;
    throw error;
  }
  return false;
}

function sameAddress(left: string, right: string): boolean {
  if (!ipaddr.isValid(left) || !ipaddr.isValid(right)) return false;
  return ipaddr.process(left).toNormalizedString() === ipaddr.process(right).toNormalizedString();
}
