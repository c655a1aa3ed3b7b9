/**
 * Decides whether a view's agent is who it claims to be: a signed request by its Web Bot Auth
 * signature, otherwise by the operator's published address ranges, otherwise by forward-confirmed
 * reverse DNS where the operator documents it. A claim that none of these can check stays claimed.
 *
 *   const verifier = createAgentVerifier({ ipRanges, resolver, keyDirectory });
 *   await verifier.verify({ agent: 'GPTBot', ip: '192.0.2.1', method: 'GET', host, target, headers });
 */
import { createIpRangeMatcher, type IpRangeMatcher, type IpRangeTable } from './ip-ranges.ts';
import { type ReverseDnsResolver, reverseDnsSuffixes, verifiedByReverseDns } from './reverse-dns.ts';
import { type KeyDirectory, type SignedRequest, verifiedByWebBotAuth } from './web-bot-auth.ts';

export interface VerificationRequest {
  /** The agent the classifier named; null (a person) is never verified. */
  agent: string | null;
  ip: string | undefined;
  method: string | undefined;
  host: string | undefined;
  target: string;
  headers: SignedRequest['headers'];
}

export interface AgentVerifier {
  verify(request: VerificationRequest): Promise<boolean>;
}

export function createAgentVerifier(dependencies: {
  ipRanges: IpRangeTable | IpRangeMatcher;
  resolver: ReverseDnsResolver;
  keyDirectory: KeyDirectory;
  cacheSize?: number;
}): AgentVerifier {
  const ranges =
    'sources' in dependencies.ipRanges ? createIpRangeMatcher(dependencies.ipRanges) : dependencies.ipRanges;
  const cacheSize = dependencies.cacheSize ?? 10_000;
  // Reverse DNS answers per (agent, address): a crawler sends many requests from one address.
  const dnsCache = new Map<string, Promise<boolean>>();
  return {
    async verify(request) {
      if (request.agent === null) return false;
      if (request.headers.signature !== undefined && request.headers['signature-agent'] !== undefined) {
        if (request.host === undefined) return false;
        return verifiedByWebBotAuth(dependencies.keyDirectory, {
          method: request.method ?? 'GET',
          host: request.host,
          target: request.target,
          headers: request.headers,
        });
      }
      if (request.ip === undefined) return false;
      if (ranges.covers(request.agent)) return ranges.contains(request.agent, request.ip);
      const suffixes = reverseDnsSuffixes[request.agent.toLowerCase()];
      if (suffixes === undefined) return false;
      const key = `${request.agent.toLowerCase()} ${request.ip}`;
      let answer = dnsCache.get(key);
      if (answer === undefined) {
        answer = verifiedByReverseDns(dependencies.resolver, request.ip, suffixes);
        if (dnsCache.size >= cacheSize) dnsCache.delete(dnsCache.keys().next().value as string);
        dnsCache.set(key, answer);
      }
      return answer;
    },
  };
}
