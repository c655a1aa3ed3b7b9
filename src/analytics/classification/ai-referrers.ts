/**
 * People sent by AI answers: a human view whose referrer is an AI assistant's site, or whose
 * `utm_source` names one (ChatGPT adds `utm_source=chatgpt.com` to the links it cites:
 * https://help.openai.com/en/articles/9237897-chatgpt-search). The hosted service's export splits
 * these views out the same way.
 */

/** Assistant by the host its links are followed from (and its subdomains). */
const assistantsByHost: ReadonlyArray<[host: string, assistant: string]> = [
  ['chatgpt.com', 'ChatGPT'],
  ['chat.openai.com', 'ChatGPT'],
  ['perplexity.ai', 'Perplexity'],
  ['claude.ai', 'Claude'],
  ['gemini.google.com', 'Gemini'],
  ['bard.google.com', 'Gemini'],
  ['copilot.microsoft.com', 'Copilot'],
  ['copilot.com', 'Copilot'],
  ['chat.mistral.ai', 'Mistral'],
  ['chat.deepseek.com', 'DeepSeek'],
  ['grok.com', 'Grok'],
  ['meta.ai', 'Meta AI'],
  ['you.com', 'You.com'],
  ['phind.com', 'Phind'],
  ['poe.com', 'Poe'],
  ['duck.ai', 'Duck.ai'],
];

const assistantByHost = new Map(assistantsByHost);

/** `utm_source` values (lower-cased) that assistants put on the links they cite. */
const assistantsByUtmSource: Readonly<Record<string, string>> = {
  chatgpt: 'ChatGPT',
  'chatgpt.com': 'ChatGPT',
  openai: 'ChatGPT',
  perplexity: 'Perplexity',
  'perplexity.ai': 'Perplexity',
  claude: 'Claude',
  'claude.ai': 'Claude',
  gemini: 'Gemini',
  copilot: 'Copilot',
  'copilot.com': 'Copilot',
  mistral: 'Mistral',
  deepseek: 'DeepSeek',
  grok: 'Grok',
  'you.com': 'You.com',
  phind: 'Phind',
};

/** The AI assistant that sent a view, from its referrer's host or the page URL's `utm_source`; or null. */
export function aiReferrerOf(referrerHost: string | null, target: string): string | null {
  // The host and each of its parent domains, looked up in turn: every referred view asks, and most
  // referrers are no assistant's.
  for (let host = referrerHost?.toLowerCase(); host !== undefined; ) {
    const assistant = assistantByHost.get(host);
    if (assistant !== undefined) return assistant;
    const dot = host.indexOf('.');
    host = dot === -1 ? undefined : host.slice(dot + 1);
  }
  const query = target.indexOf('?');
  if (query === -1) return null;
  const source = new URLSearchParams(target.slice(query + 1).split('#', 1)[0]).get('utm_source');
  return source === null ? null : (assistantsByUtmSource[source.trim().toLowerCase()] ?? null);
}
