import slugify from 'slugify';

/**
 * Nuxt Content's routes of files (src/utils/content/transformers/path-meta.ts in nuxt/content v3;
 * src/runtime/transformers/path-meta.ts in v2): each segment of a file's path without its
 * extension loses one leading number (`2.install` is `install`, but a version such as `1.2` or
 * `2.x` stays), `index` becomes nothing, and what is left goes through the `slugify` package,
 * lower case (unless `lower` is false: v3's rewriting of `.md` links keeps case).
 */
export function generatePath(
  path: string,
  options: { forceLeadingSlash?: boolean; lower?: boolean } = {},
): string {
  const { forceLeadingSlash = true, lower = true } = options;
  const joined = path
    .split('/')
    .map((part) => slugify(refineUrlPart(part), { lower }))
    .join('/');
  return forceLeadingSlash ? `/${joined.replace(/^\/+/, '')}`.replace(/(?<=.)\/+$/, '') : joined;
}

/** One path segment without its ordering number, `index` and `.draft`. */
export function refineUrlPart(name: string): string {
  const last = name.split(/[/:]/).pop() ?? '';
  if (/^\d+(?:\.\d+)*(?:\.x)?$/.test(last)) return last;
  return last
    .replace(/^\d+\./, '')
    .replace(/^index(\.draft)?$/, '')
    .replace(/\.draft$/, '');
}

/**
 * A Markdown link as Nuxt Content 2.2+ and 3 write it (`normaliseLink` in its markdown
 * transformer): a link whose path ends in `.md` and that is neither absolute (`/`) nor `http` has
 * each segment made a route segment, relative still (`./2.install.md` is `./install`); v2 lower-cases
 * it, v3 keeps its case. Every other link is left as written.
 */
export function normaliseLink(link: string, version: 2 | 3): string {
  const hash = /#.+$/.exec(link)?.[0] ?? '';
  const path = link.slice(0, link.length - hash.length);
  const relative = link.startsWith('./') || link.startsWith('../');
  if (!path.endsWith('.md') || !(relative || (!/^https?/.test(link) && !link.startsWith('/')))) return link;
  return `${generatePath(link.replace(`.md${hash}`, ''), { forceLeadingSlash: false, lower: version === 2 })}${hash}`;
}
