/** Whether a view's agent is who it claims: Web Bot Auth signatures, published address ranges, reverse DNS. */
export { type AgentVerifier, createAgentVerifier, type VerificationRequest } from './agent-verifier.ts';
export { createIpRangeMatcher, type IpRangeTable, prefixesFromPublishedList } from './ip-ranges.ts';
export { publishedIpRanges } from './published-ip-ranges.ts';
export { createDnsResolver, type ReverseDnsResolver } from './reverse-dns.ts';
export { createHttpKeyDirectory, type KeyDirectory } from './web-bot-auth.ts';
