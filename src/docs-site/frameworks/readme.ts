import { posix } from 'node:path';
import { isScalar, isSeq, parseDocument } from 'yaml';
import { ConfigLines } from '../config-lines.ts';
import { readHeadingAnchors } from '../heading-anchors.ts';
import { decodePath, joinInside, splitUrl } from '../link-urls.ts';
import type { LinkTarget, NavigationEntry, SiteModel, SiteModelBuilder, SiteProblem } from '../site-model.ts';
import { isRecord, yamlValue } from './yaml-problems.ts';

/** The hub's sections: their folder in the repository and their URL segment (https://docs.readme.com/main/docs/documentation-structure). */
const sections = [
  { folder: 'docs', segment: 'docs', scheme: 'doc', name: 'Guides' },
  { folder: 'reference', segment: 'reference', scheme: 'ref', name: 'API Reference' },
  { folder: 'custom_pages', segment: 'page', scheme: 'page', name: 'custom pages' },
  { folder: 'recipes', segment: 'recipes', scheme: null, name: 'recipes' },
  { folder: 'changelogs', segment: 'changelog', scheme: 'changelog', name: 'changelog' },
] as const;
type Section = (typeof sections)[number];

const pageFile = /\.(md|mdx)$/i;
/**
 * `getHref` (@readme/markdown 11.8.0 components/Anchor.tsx, the same in 6.x): `doc:`, `ref:`,
 * `page:`, `changelog:` and `blog:` links become the hub's URLs when what follows is a slug.
 */
const schemeLink = /^(doc|ref|page|changelog|blog):(.*)$/;
const slugCharacters = /^[-_a-zA-Z0-9]*$/;
/** A version before the section (`/v1.0/docs/x`): another Git branch's pages. */
const versionSegment = /^v?\d+(\.\d+)*(-[\w.]+)?$/;

/**
 * ReadMe projects kept in Git by ReadMe Refactored's two-way sync
 * (https://docs.readme.com/main/docs/documentation-structure): the repository is the project, one
 * branch one version. `docs/<category>/` holds the Guides' pages, a page with children a folder with
 * `index.md`; `reference/`, `custom_pages/`, `recipes/` and `changelogs/` the other sections; each
 * folder's `_order.yaml` lists its children in order. A page's slug is its file name (a parent's, its
 * folder's), one namespace per section whatever the folders: it is served at `/docs/<slug>`,
 * `/reference/<slug>`, `/page/<slug>`, `/recipes/<slug>` or `/changelog/<slug>`. Pages are MDX,
 * rendered by @readme/markdown: `doc:slug` (`ref:`, `page:`, `changelog:`) links name a page of
 * that section; heading ids are rehype-slug's (github-slugger).
 */
export const buildReadmeSite: SiteModelBuilder = async (source) => {
  const { files } = source;
  const unsupported: string[] = [];
  const problems: SiteProblem[] = [];
  const configFiles: string[] = [];

  /** Each section's slugs: slug -> its page files (more than one: the hub shows one of them). */
  const slugs = new Map<Section, Map<string, string[]>>(sections.map((section) => [section, new Map()]));
  const pages = new Map<string, string[]>();
  const sectionOf = (path: string) => sections.find((section) => path.startsWith(`${section.folder}/`));
  const slugOf = (path: string): string => {
    const name = posix
      .basename(path)
      .replace(pageFile, '')
      .replace(/\.html$/i, '');
    // A page with children is its folder's `index.md`; a category's folder is no page.
    return name === 'index' && path.split('/').length > 3 ? posix.basename(posix.dirname(path)) : name;
  };
  for (const path of files.paths) {
    const section = sectionOf(path);
    if (section === undefined) continue;
    const isPage = pageFile.test(path) || (section.folder === 'custom_pages' && /\.html$/i.test(path));
    if (!isPage || posix.basename(path).startsWith('_')) continue;
    const slug = slugOf(path);
    const bySlug = slugs.get(section);
    const taken = bySlug?.get(slug) ?? [];
    bySlug?.set(slug, taken);
    taken.push(path);
    if (pageFile.test(path)) pages.set(path, [`/${section.segment}/${slug}`]);
  }
  for (const [section, bySlug] of slugs)
    for (const [slug, paths] of bySlug)
      if (paths.length > 1 && unsupported.length < 20)
        unsupported.push(
          `${paths.slice(0, 2).join(' and ')}${paths.length > 2 ? ` (and ${paths.length - 2} more)` : ''} share the ${section.name} slug \`${slug}\`: ReadMe shows one of them (which one is not in the repository)`,
        );
  const lowerSlugs = new Map(
    [...slugs].map(([section, bySlug]) => [
      section,
      new Set([...bySlug.keys()].map((slug) => slug.toLowerCase())),
    ]),
  );
  /** Pages whose content the hub writes (API endpoints from their description): their anchors are unknown. */
  const endpointPages = new Set<string>();
  for (const path of pages.keys()) {
    if (!path.startsWith('reference/')) continue;
    const facts = await source.pageFacts(path);
    if (isRecord(facts?.frontMatter?.api)) endpointPages.add(path);
  }

  /** A page of a section by its slug (exact: slugs are lower case). */
  const pageTarget = (section: Section, slug: string): LinkTarget => {
    const found = slugs.get(section)?.get(slug)?.[0];
    // What ReadMe does with a slug of another section, or in other case, is not documented.
    const elsewhere = sections.find((other) => other !== section && slugs.get(other)?.has(slug));
    if (found === undefined && elsewhere !== undefined)
      return { kind: 'unchecked', reason: `a slug of the ${elsewhere.name}, not of the ${section.name}` };
    if (found === undefined && lowerSlugs.get(section)?.has(slug.toLowerCase()) === true)
      return { kind: 'unchecked', reason: `a slug of the ${section.name} in other case` };
    if (found === undefined)
      return {
        kind: 'broken',
        reason: `no page of the ${section.name} has the slug \`${slug}\` (it would be ${section.folder}/…/${slug}.md)`,
      };
    if (!pageFile.test(found)) return { kind: 'served', reason: `the custom page ${found}` };
    return { kind: 'file', file: found };
  };
  /** A path of the hub: `/<section>/<slug>`, another version's, or a path this model does not know. */
  const hubPath = (path: string): LinkTarget => {
    const segments = path.replace(/^\/+/, '').replace(/\/+$/, '').split('/');
    if (versionSegment.test(segments[0] ?? '') && segments.length > 1)
      return { kind: 'unchecked', reason: 'a page of another version (another Git branch)' };
    const section = sections.find((candidate) => candidate.segment === segments[0]);
    if (section === undefined || segments.length !== 2)
      return { kind: 'unchecked', reason: `a path of the hub outside its sections` };
    return pageTarget(section, segments[1] ?? '');
  };

  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    const written = url.trim();
    if (written === '' || written.startsWith('#')) return { kind: 'external' };
    const scheme = schemeLink.exec(written.split('#')[0] ?? '');
    if (scheme !== null) {
      const [, kind = '', slug = ''] = scheme;
      // Anything but a slug is left as written: a URL no browser can follow.
      if (!slugCharacters.test(slug))
        return {
          kind: 'broken',
          reason: `ReadMe turns \`${kind}:\` links into URLs only when a slug (letters, digits, \`-\`, \`_\`) follows; this one stays \`${written}\``,
        };
      const section =
        kind === 'doc'
          ? sections[0]
          : kind === 'ref'
            ? sections[1]
            : kind === 'page'
              ? sections[2]
              : sections[4];
      return pageTarget(section, slug);
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(written) || written.startsWith('//')) return { kind: 'external' };
    const { path } = splitUrl(written);
    if (path === '') return { kind: 'external' };
    if (path.startsWith('/')) return hubPath(path);
    // A file path: ReadMe publishes no file of the repository, and does not rewrite such links.
    if (/\.[A-Za-z0-9]+$/.test(path)) {
      const file = joinInside(posix.dirname(from), path);
      if (file === null || !files.has(file)) return { kind: 'broken', reason: `no file ${file ?? path}` };
      return {
        kind: 'unchecked',
        reason:
          link?.kind === 'image'
            ? 'an image in the repository (ReadMe serves uploaded images)'
            : `a file link: on the hub it resolves from the page's URL, and ReadMe does not say it rewrites it`,
      };
    }
    // A URL relative to the page's own (`/docs/<slug>`).
    const own = pages.get(from)?.[0];
    if (own === undefined) return { kind: 'unchecked', reason: 'a relative URL in a file that is no page' };
    try {
      return hubPath(decodePath(new URL(written, `https://hub.invalid${own}`).pathname));
    } catch {
      return { kind: 'unchecked', reason: 'a URL the browser cannot resolve' };
    }
  };

  // Navigation: every folder's `_order.yaml`, and pages' "What's Next" (`next.pages`).
  const navigation: NavigationEntry[] = [];
  const ordered = new Set<string>();
  for (const path of files.paths) {
    if (posix.basename(path) !== '_order.yaml' || sectionOf(path) === undefined) continue;
    const text = await files.read(path);
    if (text === null) continue;
    configFiles.push(path);
    const document = parseDocument(text, { logLevel: 'silent' });
    problems.push(...yamlValue(document, path).problems);
    const folder = posix.dirname(path);
    ordered.add(folder);
    // `docs/` and `reference/` list their categories (folders, an empty one may be listed);
    // the others list pages.
    const categories = folder === 'docs' || folder === 'reference';
    // Each entry's line, from its offset (entries are in order): one pass over the text.
    let line = 1;
    let counted = 0;
    for (const item of isSeq(document.contents) ? document.contents.items : []) {
      const name = isScalar(item) ? item.value : null;
      if (typeof name !== 'string') continue;
      for (const end = item.range?.[0] ?? counted; counted < end; counted += 1)
        if (text.charCodeAt(counted) === 10) line += 1;
      const candidates = [
        ...(name === 'index' ? [`${folder}/index.md`, `${folder}/index.mdx`] : []),
        `${folder}/${name}.md`,
        `${folder}/${name}.mdx`,
        `${folder}/${name}/index.md`,
        `${folder}/${name}/index.mdx`,
      ];
      const html = `${folder}/${name}.html`;
      // Custom pages may be HTML.
      const file =
        candidates.find((candidate) => pages.has(candidate)) ??
        (folder === 'custom_pages' && files.has(html) ? html : undefined);
      navigation.push({
        reference: name,
        file: path,
        line,
        groups: [],
        // A page's entry names a page beside it (the sync writes one for each); a category is no page.
        target: categories ? { unchecked: 'a category', onlyFiles: [] } : (file ?? null),
      });
    }
  }
  for (const [path] of pages) {
    const facts = await source.pageFacts(path);
    const next = isRecord(facts?.frontMatter?.next) ? facts.frontMatter.next.pages : undefined;
    if (!Array.isArray(next)) continue;
    const text = (await files.read(path)) ?? '';
    const lines = new ConfigLines(text);
    for (const entry of next) {
      if (!isRecord(entry) || typeof entry.slug !== 'string') continue;
      const section =
        entry.type === 'basic'
          ? sections[0]
          : entry.type === 'endpoint'
            ? sections[1]
            : entry.type === 'custom_page'
              ? sections[2]
              : entry.type === 'changelog'
                ? sections[4]
                : undefined;
      if (section === undefined) continue;
      const target = pageTarget(section, entry.slug);
      navigation.push({
        reference: entry.slug,
        file: path,
        line: lines.lineOf(entry.slug),
        groups: ['What’s Next'],
        target:
          target.kind === 'file'
            ? target.file
            : target.kind === 'broken'
              ? null
              : { unchecked: 'a custom page', onlyFiles: [] },
      });
    }
  }

  /** The folder whose `_order.yaml` lists a page: a parent page (`x/index.md`) is listed beside its folder. */
  const listingFolder = (file: string) => {
    const folder = posix.dirname(file);
    return slugOf(file) === posix.basename(folder) && /^index\.mdx?$/i.test(posix.basename(file))
      ? posix.dirname(folder)
      : folder;
  };
  const model: SiteModel = {
    framework: 'readme',
    siteRoot: '',
    configFiles,
    pages,
    partials: new Set(),
    navigation,
    // The sync lists every page in its folder's `_order.yaml`.
    needsNavigationEntry: (file) => pages.has(file) && ordered.has(listingFolder(file)),
    navigationFileFor: (file) => `${listingFolder(file)}/_order.yaml`,
    pageAnchors: (file, text) =>
      pages.has(file) && !endpointPages.has(file)
        ? readHeadingAnchors(text, { mdx: true, customIds: false, maintainCase: false, always: ['top'] })
        : null,
    resolveLink,
    configurationProblems: problems,
    unsupported,
    conventions: [
      'Link to another Guides page as `doc:<slug>` (or `/docs/<slug>`), to an API Reference page as `ref:<slug>`, to a custom page as `page:<slug>`; a page’s slug is its file name without `.md` (a page with children: its folder’s name), whatever its category.',
      'A new page goes in its category’s folder under `docs/`, and its slug in that folder’s `_order.yaml`, where the sidebar lists it.',
    ],
  };
  return model;
};
