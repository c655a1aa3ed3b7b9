/**
 * Web Bot Auth: an agent that signs its requests (HTTP Message Signatures, RFC 9421) names itself in
 * a `Signature-Agent` header, whatever User-Agent it sends. OpenAI's ChatGPT agent sends a Chrome
 * user agent with `Signature-Agent: "https://chatgpt.com"`
 * (https://help.openai.com/en/articles/11845367-chatgpt-agent-allowlisting). A signed request is never
 * a person's; whether the signature is genuine is decided by verification, not here.
 */
import type { AiCategory } from './traffic-category.ts';

export interface SigningAgent {
  agent: string;
  category: AiCategory;
  operator: string;
}

/** Signers we know, by the host of their `Signature-Agent` (the key directory's origin). */
export const knownSigningAgents: Readonly<Record<string, SigningAgent>> = {
  'chatgpt.com': { agent: 'ChatGPT-Agent', category: 'ai_assistant', operator: 'OpenAI' },
};

/**
 * The host named by a `Signature-Agent` header, lower-cased, or `undefined`. The header is an RFC 8941
 * string (`"https://chatgpt.com"`) in the architecture draft
 * (https://datatracker.ietf.org/doc/draft-meunier-web-bot-auth-architecture/), and a dictionary
 * (`sig1="https://chatgpt.com"`) in later revisions; the first quoted HTTPS URL is taken either way.
 */
export function signatureAgentHost(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const quoted = /"(https:\/\/[^"\s]{1,253})"/.exec(header)?.[1] ?? header.trim();
  const url = URL.parse(quoted);
  if (url === null || url.protocol !== 'https:' || url.hostname === '') return undefined;
  return url.hostname.toLowerCase();
}

/**
 * The agent a `Signature-Agent` header speaks for: a known signer's agent, else the signer's host (as
 * the classifier names a signed request whose user agent names no agent). A valid signature proves
 * this agent and no other: a user agent that claims GPTBot, signed with someone else's keys, is not
 * OpenAI's.
 */
export function signingAgentOf(header: string | undefined): string | undefined {
  const host = signatureAgentHost(header);
  return host === undefined ? undefined : (knownSigningAgents[host]?.agent ?? host);
}
