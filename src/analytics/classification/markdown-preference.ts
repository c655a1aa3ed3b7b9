/**
 * Whether a request's `Accept` header prefers Markdown to HTML. Browsers never list `text/markdown`;
 * agents that want Markdown (Claude Code's and opencode's fetchers, for instance) rank it first, often
 * while sending a browser's user agent. Quality values as in RFC 9110 §12.5.1
 * (https://www.rfc-editor.org/rfc/rfc9110#name-accept): a missing `q` is 1, `q=0` means "not acceptable".
 */

const markdownTypes = new Set(['text/markdown', 'text/x-markdown']);

/**
 * True when `text/markdown` is acceptable and ranked at least as high as `text/html`. A tie counts
 * as a preference: a client that names Markdown beside HTML at the same quality is asking for it,
 * and RFC 9110 gives the order within a header no meaning to break the tie with.
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  // Nearly every request's header names no Markdown type at all: answered without parsing it.
  if (accept === undefined || !/markdown/i.test(accept)) return false;
  let markdown = 0;
  let html = 0;
  for (const part of accept.split(',')) {
    const [type = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    let quality = 1;
    for (const parameter of parameters) {
      const value = /^q=([01](?:\.\d{0,3})?)$/.exec(parameter)?.[1];
      if (value !== undefined) quality = Number(value);
    }
    if (markdownTypes.has(type)) markdown = Math.max(markdown, quality);
    else if (type === 'text/html') html = Math.max(html, quality);
  }
  return markdown > 0 && markdown >= html;
}
