/**
 * Decides whether a view's agent is who it claims to be: by the CDN's own verification when a
 * drained Cloudflare log carries it and agrees with the classification, by its Web Bot Auth
 * signature (the signer's own agent only), by the operator's published address ranges, or by
 * forward-confirmed reverse DNS where the operator documents it. A claim that none of these can
 * check stays claimed.
 *
 *   const verifier = createAgentVerifier({ ipRanges, resolver, keyDirectory });
 *   const claim = { agent: 'GPTBot', ip: '192.0.2.1', method: 'GET', host, target, headers };
 *   if (verifier.canVerify(claim)) view.verified = await verifier.verify(claim);
 */
import { signingAgentOf, type TrafficCategory } from '../classification/index.ts';
import { agreesWithVerifiedBotCategory } from './cloudflare-verified-bot.ts';
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
  /** The view's category; needed only to compare it with `verifiedBotCategory`. */
  category?: TrafficCategory | undefined;
  /** Cloudflare's `VerifiedBotCategory` of a logged request (cloudflare-verified-bot.ts). */
  verifiedBotCategory?: string | undefined;
}

export interface AgentVerifier {
  /**
   * Whether `verify` could answer true: the request is signed, or its agent has published ranges or
   * documented reverse DNS and the request has an address, or its CDN verified it. Synchronous and
   * cheap, so that ingestion starts no verification for the many views that cannot be verified.
   */
  canVerify(request: VerificationRequest): boolean;
  /**
   * The verdict: at once when it needs no lookup (the CDN's category, a published range, an agent
   * nothing can verify), else a promise (a signature's key directory, reverse DNS), so that
   * ingestion waits only for the views that need it.
   */
  verify(request: VerificationRequest): boolean | Promise<boolean>;
}

export function createAgentVerifier(dependencies: {
  ipRanges: IpRangeTable | IpRangeMatcher;
  resolver: ReverseDnsResolver;
  keyDirectory: KeyDirectory;
  cacheSize?: number;
  /**
   * Reverse DNS checks in flight at most (default 64). Scrapers claim Googlebot from many addresses
   * outside Google's ranges, each a lookup; one beyond this is not verified and not remembered.
   */
  maximumLookups?: number;
}): AgentVerifier {
  const ranges =
    'sources' in dependencies.ipRanges ? createIpRangeMatcher(dependencies.ipRanges) : dependencies.ipRanges;
  const cacheSize = dependencies.cacheSize ?? 10_000;
  // Reverse DNS answers per (agent, address): a crawler sends many requests from one address.
  const answers = new Map<string, Promise<boolean>>();
  const maximumLookups = dependencies.maximumLookups ?? 64;
  let lookingUp = 0;

  // Signed by the agent the view is counted as: a valid signature proves its signer, so one by another
  // signer (a user agent that claims GPTBot, signed with anyone's own keys) leaves the address to decide.
  const signed = (request: VerificationRequest) =>
    request.headers.signature !== undefined &&
    request.host !== undefined &&
    request.agent !== null &&
    signingAgentOf(request.headers['signature-agent']) === request.agent;
  const checksAddress = (agent: string, ip: string | undefined) =>
    ip !== undefined && (ranges.covers(agent) || reverseDnsSuffixes[agent.toLowerCase()] !== undefined);
  const cdnAgrees = (request: VerificationRequest) =>
    request.category !== undefined &&
    agreesWithVerifiedBotCategory(request.category, request.verifiedBotCategory);

  function byAddress(agent: string | null, ip: string | undefined): boolean | Promise<boolean> {
    if (agent === null || ip === undefined) return false;
    // The shipped ranges are checked first (a bisection, no lookup); an address outside them is
    // asked of reverse DNS where the operator documents it, since operators add ranges between two
    // releases of the table.
    if (ranges.covers(agent) && ranges.contains(agent, ip)) return true;
    const suffixes = reverseDnsSuffixes[agent.toLowerCase()];
    if (suffixes === undefined) return false;
    const key = `${agent.toLowerCase()} ${ip}`;
    let answer = answers.get(key);
    if (answer !== undefined) return answer;
    if (lookingUp >= maximumLookups) return false;
    lookingUp += 1;
    answer = verifiedByReverseDns(dependencies.resolver, ip, suffixes).finally(() => {
      lookingUp -= 1;
    });
    if (answers.size >= cacheSize) answers.delete(answers.keys().next().value as string);
    answers.set(key, answer);
    return answer;
  }

  return {
    canVerify(request) {
      if (request.agent === null) return false;
      return cdnAgrees(request) || signed(request) || checksAddress(request.agent, request.ip);
    },
    verify(request) {
      if (request.agent === null) return false;
      if (cdnAgrees(request)) return true;
      if (!signed(request)) return byAddress(request.agent, request.ip);
      // A signature that does not check (forged, or expired, as in a log imported later) leaves the
      // agent's address to decide.
      return verifiedByWebBotAuth(dependencies.keyDirectory, {
        method: request.method ?? 'GET',
        host: request.host as string,
        target: request.target,
        headers: request.headers,
      }).then((verified) => verified || byAddress(request.agent, request.ip));
    },
  };
}
