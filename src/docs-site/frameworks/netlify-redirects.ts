import { RE2JS } from 're2js';
import type { RepositoryFiles } from '../site-model.ts';

const maximumRules = 2000;

/**
 * The paths a site's Netlify redirects answer (https://docs.netlify.com/routing/redirects/): the
 * `[[redirects]]` of `netlify.toml` and the rules of a `_redirects` file, or of a template that writes
 * one (Hugo sites generate it from `layouts/home.redirects`: a line whose source holds no template
 * code is a rule as written). A `from` may end with a `*` splat or hold `:placeholder` segments; each is
 * compiled for RE2, so no rule can make matching slow.
 */
export async function readNetlifyRedirects(
  files: RepositoryFiles,
  sources: { toml: string[]; rules: string[] },
): Promise<(path: string) => boolean> {
  const patterns: RE2JS[] = [];
  const add = (from: string) => {
    if (patterns.length >= maximumRules || /^[a-z]+:/i.test(from)) return;
    const path = from.startsWith('/') ? from : `/${from}`;
    const source = path
      .split(/(\*|:[A-Za-z_]\w*)/)
      .map((part) =>
        part === '*' ? '.*' : part.startsWith(':') && part.length > 1 ? '[^/]+' : RE2JS.quote(part),
      )
      .join('');
    try {
      patterns.push(RE2JS.compile(`^${source}/?$`));
    } catch {
      // A rule this reader cannot compile answers nothing here.
    }
  };
  for (const file of sources.rules) {
    for (const line of ((await files.read(file)) ?? '').split('\n')) {
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('#')) continue;
      // A template may compute a rule's destination (`/docs/latest  /docs/{{ $latest }}/`): its
      // source is still written as it is; a source made by the template is not known.
      const from = trimmed.split(/\s+/)[0];
      if (from !== undefined && !from.includes('{{')) add(from);
    }
  }
  for (const file of sources.toml) {
    const text = (await files.read(file)) ?? '';
    for (const match of text.matchAll(/^\s*from\s*=\s*["']([^"'\n]+)["']/gm)) add(match[1] ?? '');
  }
  return (path) => patterns.some((pattern) => pattern.matches(path));
}
