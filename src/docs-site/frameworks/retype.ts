import ignore, { type Ignore } from 'ignore';
import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import { parseDocument } from 'yaml';
import { ConfigLines } from '../config-lines.ts';
import { readRetypeAnchors } from '../heading-anchors.ts';
import {
  createCaseInsensitiveLookup,
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  listFolders,
  relativeTo,
  resolveFromPageUrl,
  splitUrl,
} from '../link-urls.ts';
import {
  type LinkTarget,
  type NavigationEntry,
  navigationTarget,
  type SiteModel,
  type SiteModelBuilder,
  type SiteProblem,
} from '../site-model.ts';
import { isRecord, yamlProblems, yamlValue } from './yaml-problems.ts';

// Retype takes the first of these in the project's folder, in any case
// (https://retype.com/configuration/reserved_words/#project-config).
const configNames = ['retype.yml', 'retype.yaml', 'retype.json'];
// A folder's page, in the order Retype 4.6 takes them (the others are "superseded" and not built;
// the documentation's order differs, the build's is this); at the input's root, without one of
// these, `home.md` and then `welcome.md` (https://retype.com/configuration/reserved_words/#default-pages).
const defaultPageNames = ['index.md', 'default.md', 'readme.md'];
const rootPageNames = ['home.md', 'welcome.md'];
// Files Retype copies to the site without being told (https://retype.com/configuration/project/#include).
const copiedExtensions = new Set(
  'avif bmp flac gif heif ico jpeg jpg m4a mkv mov mp3 mp4 ogg ogv pdf png svg tiff wav webm webp 3gp ai css eps htm html js json txt zip'.split(
    ' ',
  ),
);
const copiedFolders = /(^|\/)(static|public|assets|resources)\//i;
// Where Retype 4.4 and later look for an image its path does not name (https://retype.com/feature-log/).
const imageFolders = ['static', 'images', 'img', 'resources', 'attachments', 'assets', 'public'];
const maximumPatterns = 500;

/**
 * Retype (https://retype.com), read as its build reads a project: the configuration is the first
 * `retype.yml`, `retype.yaml` or `retype.json`; pages are the `.md` files under `input` (names
 * starting with `.` or `_`, and `node_modules`, left out, then `exclude` and `include` as
 * `.gitignore` patterns, without case); each is served at its path lower-cased, spaces as `-` and
 * other punctuation dropped (`permalink:` or `route:` replaces it), a folder's page being its
 * `index.md`, `default.md` or `readme.md`. A link names a source file, not a URL: relative to the
 * file it is written in, or to `input` with a leading `/`, in any case, with or without `.md`, or a
 * folder for its page; Retype rewrites it to the page's URL and warns of one it cannot resolve.
 * The sidebar is made from the folders: no page needs an entry; the top bar's `links` and the
 * footer's are resolved like links.
 */
export const buildRetypeSite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const anyCase = createCaseInsensitiveLookup(files.paths);
  const configFile =
    configNames
      .map((name) => anyCase(siteRoot === '' ? name : `${siteRoot}/${name}`))
      .find((path) => path !== undefined) ?? (siteRoot === '' ? 'retype.yml' : `${siteRoot}/retype.yml`);
  const text = (await files.read(configFile)) ?? '';
  const { config, problems } = readRetypeConfig(text, configFile);
  const unsupported: string[] = [];
  if (config.extends !== undefined || files.paths.some((path) => isProjectPartial(siteRoot, path)))
    unsupported.push(`${configFile}: project partials (\`extends\`, \`retype.<id>.yml\`) are not merged`);

  const input =
    typeof config.input === 'string' ? joinInside(siteRoot, config.input.trim() || '.') : siteRoot;
  if (input === null) unsupported.push(`${configFile}: \`input\` leaves the repository; the default is read`);
  const inputRoot = input ?? siteRoot;
  const basePath = basePathOf(config.url);
  const recase = !(isRecord(config.generator) && config.generator.recase === 'none');
  const leftOut = createExclusion(config.exclude, config.include);
  /** Whether Retype reads a file under `input` at all (its path relative to `input`). */
  const isRead = (relative: string) => !leftOut(relative);

  // The `.md` files Retype reads, by folder.
  const candidates = new Map<string, string[]>();
  for (const path of files.paths) {
    if (!isWithin(inputRoot, path) || !/\.md$/i.test(path) || !isRead(relativeTo(inputRoot, path))) continue;
    const folder = folderOf(path);
    const list = candidates.get(folder) ?? [];
    list.push(path);
    candidates.set(folder, list);
  }
  /** Each folder's page, and the `.md` files a folder's page supersedes (not built). */
  const folderPages = new Map<string, string>();
  const superseded = new Map<string, string>();
  const named = (folder: string, name: string) =>
    candidates.get(folder)?.find((path) => relativeTo(folder, path).toLowerCase() === name);
  for (const folder of listFolders(files.paths)) {
    if (!isWithin(inputRoot, folder)) continue;
    const base = folder.slice(folder.lastIndexOf('/') + 1).toLowerCase();
    const ranked = defaultPageNames.map((name) => named(folder, name)).filter((path) => path !== undefined);
    const rootRanked =
      folder === inputRoot && ranked.length === 0
        ? rootPageNames.map((name) => named(folder, name)).filter((path) => path !== undefined)
        : [];
    // `guides.md` beside `guides/` is that folder's page, before any in it (Retype 4.6 says
    // `Page "guides/index.md" is superseded by "guides.md"`).
    const beside = folder === inputRoot ? undefined : named(folderOf(folder), `${base}.md`);
    const chosen = [...(beside === undefined ? [] : [beside]), ...ranked, ...rootRanked];
    // Else a page named after its folder (`guides/guides.md`).
    const first = chosen[0] ?? (folder === inputRoot ? undefined : named(folder, `${base}.md`));
    if (first === undefined) continue;
    folderPages.set(folder, first);
    for (const loser of chosen.slice(1)) superseded.set(loser, first);
  }
  const pageFolders = new Map([...folderPages].map(([folder, page]) => [page, folder]));

  // Routes: each folder's from its parent's and its name (or a `permalink` its `index.yml` or its
  // page gives), each page's from its folder's and its name (or its own `permalink`).
  const frontMatterOf = async (page: string): Promise<Readonly<Record<string, unknown>> | null> => {
    const facts = await source.pageFacts(page);
    if (facts?.frontMatter !== null && facts?.frontMatter !== undefined) return facts.frontMatter;
    // `page.yml` beside `page.md` holds the settings of a page without front matter.
    const beside = anyCase(page.replace(/\.md$/i, '.yml')) ?? anyCase(page.replace(/\.md$/i, '.yaml'));
    return beside === undefined ? null : readYamlRecord(await files.read(beside));
  };
  const slug = (segment: string) => slugSegment(segment, recase);
  const folderRoutes = new Map<string, string>([[inputRoot, '']]);
  const folderSettings = new Map<string, Readonly<Record<string, unknown>> | null>();
  const settingsOf = async (folder: string) => {
    if (!folderSettings.has(folder)) {
      const file =
        anyCase(`${folder === '' ? '' : `${folder}/`}index.yml`) ??
        anyCase(`${folder === '' ? '' : `${folder}/`}index.yaml`);
      folderSettings.set(folder, file === undefined ? null : readYamlRecord(await files.read(file)));
    }
    return folderSettings.get(folder) ?? null;
  };
  const folderRoute = async (folder: string): Promise<string> => {
    const known = folderRoutes.get(folder);
    if (known !== undefined) return known;
    const page = folderPages.get(folder);
    const permalink =
      permalinkOf(await settingsOf(folder)) ??
      (page === undefined ? null : permalinkOf(await frontMatterOf(page)));
    const route =
      permalink ??
      `${await folderRoute(folderOf(folder))}/${slug(folder.slice(folder.lastIndexOf('/') + 1))}`;
    folderRoutes.set(folder, route);
    return route;
  };
  const pages = new Map<string, string[]>();
  const redirects = new Map<string, string>();
  for (const [folder, paths] of candidates) {
    for (const path of paths) {
      if (superseded.has(path)) continue;
      const frontMatter = await frontMatterOf(path);
      const pageFolder = pageFolders.get(path);
      const route =
        pageFolder !== undefined
          ? await folderRoute(pageFolder)
          : (permalinkOf(frontMatter) ??
            `${await folderRoute(folder)}/${slug(path.slice(folder.length + (folder === '' ? 0 : 1)).replace(/\.md$/i, ''))}`);
      pages.set(path, route === '' ? [`${basePath}/`] : [`${basePath}${route}/`, `${basePath}${route}`]);
      const redirect = frontMatter?.redirect;
      if (typeof redirect === 'string' && redirect.trim() !== '') redirects.set(path, redirect.trim());
    }
  }
  if (pages.size === 0)
    unsupported.push(
      `${configFile}: no pages under ${inputRoot || 'the repository root'}/ (nothing is checked)`,
    );
  const routes = new Map<string, string>();
  for (const [page, served] of pages)
    for (const route of served) if (!routes.has(route)) routes.set(route, page);

  const folders = listFolders(files.paths);
  /** Whether Retype copies a file that is not a page to the site (its path relative to `input`). */
  const isCopied = (relative: string) =>
    copiedExtensions.has(relative.slice(relative.lastIndexOf('.') + 1).toLowerCase()) ||
    copiedFolders.test(relative) ||
    leftOut.included(relative);

  // Where the browser finds each copied file: its path under `input`, recased like the pages.
  const copiedAt = new Map<string, string>();
  for (const path of files.paths) {
    if (!isWithin(inputRoot, path) || /\.md$/i.test(path)) continue;
    const relative = relativeTo(inputRoot, path);
    if (!copiedFolders.test(relative) && (!isRead(relative) || !isCopied(relative))) continue;
    copiedAt.set(`${basePath}/${relative}`.toLowerCase(), path);
    copiedAt.set(
      `${basePath}/${relative
        .split('/')
        .map((segment) => slugSegment(segment, true))
        .join('/')}`,
      path,
    );
  }
  // Retype 4.5 and later write each page's Markdown beside its folder (`/guide/setup.md`).
  for (const [page, served] of pages) {
    const route = served[0] ?? '/';
    copiedAt.set(route === `${basePath}/` ? `${basePath}/index.md` : `${route.replace(/\/$/, '')}.md`, page);
  }
  // Pages Retype writes itself (https://retype.com/configuration/reserved_words/): tags, categories,
  // the blog's summary pages (when the project has a blog) and the site's own files.
  const blogBase =
    isRecord(config.blog) && typeof config.blog.base === 'string'
      ? slugSegment(config.blog.base, true)
      : 'blog';
  const hasBlog = [...pages.keys()].some((page) => isWithin(joinInside(inputRoot, 'blog') ?? '', page));
  /** `/tags/`, `/tags/<tag>/`, `/categories/...`, `/blog/`, `/blog/<page number>/`, `/blog/feed.xml`, `/sitemap.xml`, ... */
  const isGenerated = (lower: string): boolean => {
    // Written with or without the base path (Retype resolves these links itself).
    const rest = lower.startsWith(`${basePath}/`) ? lower.slice(basePath.length + 1) : lower.slice(1);
    const segments = rest.replace(/\/$/, '').split('/');
    const [first = '', second] = segments;
    if (segments.length === 1 && ['404.html', 'sitemap.xml', 'robots.txt', 'llms.txt'].includes(first))
      return true;
    if ((first === 'tags' || first === 'categories') && segments.length <= 2) return true;
    return (
      hasBlog &&
      first === blogBase &&
      (second === undefined || (segments.length === 2 && /^(\d+|feed\.xml)$/.test(second)))
    );
  };
  /** The page or file the browser finds at a URL path of the site, without case. */
  const servedAt = (urlPath: string): LinkTarget | null => {
    const lower = urlPath.toLowerCase();
    const page = routes.get(lower.endsWith('/') ? lower : `${lower}/`) ?? routes.get(lower);
    if (page !== undefined) return { kind: 'file', file: page };
    const file = copiedAt.get(lower.replace(/\/+$/, ''));
    if (file !== undefined) return { kind: 'file', file };
    return isGenerated(lower) ? { kind: 'served', reason: 'a page Retype generates' } : null;
  };
  /** The first folder of `path` that is a file of its own (a symbolic link, which a checkout lists but never follows). */
  const linkedFolder = (path: string): string | undefined => {
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      const folder = anyCase(path.slice(0, slash));
      if (folder !== undefined && !folders.has(folder)) return folder;
    }
    return undefined;
  };

  /** What a source path (a repository path) names as Retype finds it, without case. */
  const findTarget = (target: string, kind: 'link' | 'image'): LinkTarget | null => {
    const link = linkedFolder(target);
    if (link !== undefined)
      return { kind: 'unchecked', reason: `${link} is a symbolic link, not followed here` };
    if (!isWithin(inputRoot, target))
      return {
        kind: 'broken',
        reason: `${target} is outside the input folder ${inputRoot || '(the root)'}; Retype does not resolve it`,
      };
    const bare = target.replace(/(?<!\/)\/+$/, '');
    const exact = anyCase(bare);
    if (exact !== undefined && !folders.has(exact)) {
      if (pages.has(exact)) return { kind: 'file', file: exact };
      const winner = superseded.get(exact);
      if (winner !== undefined)
        return {
          kind: 'broken',
          reason: `Retype builds ${winner} in its place (a folder has one page) and does not resolve it`,
        };
      const relative = relativeTo(inputRoot, exact);
      // Files under an `assets/` (or `static/`, ...) folder are copied even in a folder left out (`.gitbook/assets/`).
      if (!/\.md$/i.test(exact) && copiedFolders.test(relative)) return { kind: 'file', file: exact };
      if (!isRead(relative))
        return {
          kind: 'broken',
          reason: `Retype leaves ${exact} out (names starting with \`.\` or \`_\`, \`node_modules\`, \`exclude\`)`,
        };
      if (/\.md$/i.test(exact)) return { kind: 'file', file: exact };
      if (isCopied(relative)) return { kind: 'file', file: exact };
      return {
        kind: 'broken',
        reason: `Retype copies only media and known resource types, files under static/, public/, assets/ or resources/, and \`include\`d ones; ${exact} is not copied`,
      };
    }
    const withExtension = anyCase(`${bare}.md`);
    if (withExtension !== undefined && pages.has(withExtension)) return { kind: 'file', file: withExtension };
    const folder =
      exact ?? anyCase(bare) ?? [...folders].find((known) => known.toLowerCase() === bare.toLowerCase());
    if (folder !== undefined && folders.has(folder)) {
      const page = folderPages.get(folder);
      if (page !== undefined && pages.has(page)) return { kind: 'file', file: page };
      return kind === 'image'
        ? null
        : { kind: 'broken', reason: `the folder ${folder} has no page (index.md, default.md or readme.md)` };
    }
    return null;
  };

  /** What the browser finds at a path written in a page served at `pageRoute`, left as written. */
  const browserTarget = (pageRoute: string, written: string): LinkTarget | null => {
    // The browser reads `\` as `/` in a web page's URL (the WHATWG URL standard's special schemes).
    const path = written.replace(/\\/g, '/');
    const urlPath = path.startsWith('/') ? path : resolveFromPageUrl(pageRoute, path);
    // The page or file at that URL (so a link to its heading is checked too).
    return servedAt(urlPath);
  };

  /**
   * Where a link written in a file of `folder` (a repository path) leads, read by the browser from
   * `pageRoutes` (the page's URL, or those of the pages that include the file) when Retype does not
   * resolve it and leaves it as written.
   */
  const resolveFrom = (
    folder: string,
    pageRoutes: readonly string[],
    url: string,
    kind: 'link' | 'image',
  ): LinkTarget => {
    const trimmed = url.trim();
    if (isExternalUrl(trimmed)) return { kind: 'external' };
    const hash = trimmed.indexOf('#');
    const beforeFragment = hash < 0 ? trimmed : trimmed.slice(0, hash);
    const query = beforeFragment.indexOf('?');
    // `page.md/#anchor` names `page.md`.
    const path = (query < 0 ? beforeFragment : beforeFragment.slice(0, query)).replace(/(\.md)\/+$/i, '$1');
    if (path === '') return { kind: 'external' };
    // Retype does not decode a path: `%20` names no file, and it writes the link as it is.
    if (path.includes('%'))
      return { kind: 'unchecked', reason: 'Retype leaves a percent-encoded path as written' };
    // A wikilink (`[[Page name]]`) names a page anywhere in the project by its file name.
    if (path.startsWith('[[')) return { kind: 'unchecked', reason: 'a wikilink' };
    const target = path.startsWith('/')
      ? joinInside(inputRoot, path.replace(/^\/+/, ''))
      : joinInside(folder, path);
    const found = target === null ? null : findTarget(target, kind);
    if (found !== null && found.kind !== 'broken') return found;
    if (kind === 'image') {
      // An image not at its path is looked for in the usual folders (Retype 4.4).
      const written = path.replace(/^(\.{0,2}\/)+/, '');
      for (const imageFolder of imageFolders) {
        const candidate = joinInside(inputRoot, `${imageFolder}/${written}`);
        const file = candidate === null ? undefined : anyCase(candidate);
        if (file !== undefined) return { kind: 'file', file };
      }
    }
    // A URL of the site written as such (`/guide/setup/`, `../images/x.png` from the page's URL):
    // Retype leaves it as written, and the browser finds the page or file there.
    for (const route of pageRoutes.slice(0, 20)) {
      const served = browserTarget(route, path);
      if (served !== null) return served;
    }
    if (target === null) return { kind: 'unchecked', reason: 'the link leaves the repository' };
    return (
      found ?? {
        kind: 'broken',
        reason: `no file ${relativeTo(inputRoot, target) || '/'} under ${inputRoot || 'the root'}/; Retype warns that the URL was not resolved`,
      }
    );
  };

  // Files pages include (`{{ include "name" }}`): their links are checked from their own folder.
  const partials = new Set<string>();
  const resolveInclude = (from: string, url: string): LinkTarget => {
    const name = url.trim().split('#')[0] ?? '';
    if (name === '') return { kind: 'external' };
    const named = (folder: string) => {
      const joined = joinInside(folder, name);
      if (joined === null) return undefined;
      return anyCase(joined) ?? anyCase(`${joined}.md`);
    };
    if (/^\.{1,2}\//.test(name)) {
      const file = named(folderOf(from));
      return file === undefined
        ? { kind: 'broken', reason: `no file ${name} beside ${from} to include` }
        : { kind: 'file', file };
    }
    // The page's folder, its `_includes/`, then each folder above up to the project's root.
    for (let folder = folderOf(from); ; folder = folderOf(folder)) {
      const file = named(folder) ?? named(folder === '' ? '_includes' : `${folder}/_includes`);
      if (file !== undefined && !folders.has(file)) return { kind: 'file', file };
      if (folder === '' || folder === siteRoot) break;
    }
    return {
      kind: 'broken',
      reason: `no file ${name} to include in the page's folder, an \`_includes\` folder or a folder above; Retype warns that the partial was not resolved`,
    };
  };
  /** The pages that include each partial, whose URLs its links are read from in the browser. */
  const includingPages = new Map<string, Set<string>>();
  const includers = [...pages.keys()];
  while (includers.length > 0 && partials.size < 10_000) {
    const includer = includers.pop() as string;
    const including = pages.has(includer) ? [includer] : [...(includingPages.get(includer) ?? [])];
    for (const link of (await source.pageFacts(includer))?.links ?? []) {
      if (link.kind !== 'import' || link.title !== 'include') continue;
      const target = resolveInclude(includer, link.url);
      if (target.kind !== 'file' || pages.has(target.file) || !/\.md$/i.test(target.file)) continue;
      const known = includingPages.get(target.file) ?? new Set<string>();
      const added = including.filter((page) => !known.has(page) && known.size < 20);
      for (const page of added) known.add(page);
      includingPages.set(target.file, known);
      if (partials.has(target.file) && added.length === 0) continue;
      partials.add(target.file);
      includers.push(target.file);
    }
  }
  // Every page shows these (https://retype.com/templating/includes/).
  for (const name of ['top.md', 'bottom.md']) {
    const file = anyCase(joinInside(inputRoot, `_includes/${name}`) ?? '');
    if (file !== undefined) partials.add(file);
  }

  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    const kind = link?.kind ?? 'link';
    if (kind === 'import' && link?.title === 'include') return resolveInclude(from, url);
    if (kind === 'import') {
      // `:::code source="..."`: from the page's folder, or `input` with a leading `/`.
      const path = url.trim().split('#')[0] ?? '';
      if (isExternalUrl(path)) return { kind: 'external' };
      const file = path.startsWith('/')
        ? joinInside(inputRoot, path.slice(1))
        : joinInside(folderOf(from), path);
      if (file === null) return { kind: 'unchecked', reason: 'the snippet is outside the repository' };
      const linked = linkedFolder(file);
      if (linked !== undefined)
        return { kind: 'unchecked', reason: `${linked} is a symbolic link, not followed here` };
      return anyCase(file) !== undefined
        ? { kind: 'file', file: anyCase(file) as string }
        : {
            kind: 'broken',
            reason: `no file ${file}; Retype warns that the code snippet's source is not found`,
          };
    }
    const route = pages.get(from)?.[0] ?? null;
    const pageRoutes =
      route !== null
        ? [route]
        : [...(includingPages.get(from) ?? [])].flatMap((page) => pages.get(page)?.[0] ?? []);
    // Raw HTML is written out as it is: Retype neither rewrites nor checks its links; the browser
    // reads them from the page's URL.
    if (kind === 'html' || link?.attribute === true) {
      const trimmed = url.trim();
      if (isExternalUrl(trimmed)) return { kind: 'external' };
      const path = splitUrl(trimmed).path;
      if (path === '') return { kind: 'external' };
      const first = pageRoutes[0];
      if (first === undefined) return { kind: 'unchecked', reason: 'no page includes the file' };
      if (path.startsWith('/') && basePath !== '' && !path.toLowerCase().startsWith(`${basePath}/`))
        return { kind: 'unchecked', reason: "a path from the host's root, outside the site's base path" };
      for (const pageRoute of pageRoutes.slice(0, 20)) {
        const served = browserTarget(pageRoute, path);
        if (served !== null) return served;
      }
      return {
        kind: 'broken',
        reason: `Retype leaves HTML links as written, and the browser finds no page or file at ${path.startsWith('/') ? path : resolveFromPageUrl(first, path.replace(/\\/g, '/'))}`,
      };
    }
    return resolveFrom(folderOf(from), pageRoutes, url, kind === 'image' ? 'image' : 'link');
  };

  // The top bar's and the footer's links, resolved like a page's links from `input`
  // (https://retype.com/configuration/project/#links).
  const lines = new ConfigLines(text);
  const navigation: NavigationEntry[] = [];
  const addLinks = (value: unknown, groups: string[], depth: number) => {
    if (!Array.isArray(value) || depth > 3) return;
    for (const item of value.slice(0, 500)) {
      if (!isRecord(item)) continue;
      const title = typeof item.text === 'string' ? item.text : '';
      if (typeof item.link === 'string' && item.link.trim() !== '') {
        const target = resolveFrom(inputRoot, [`${basePath}/`], item.link, 'link');
        navigation.push({
          reference: item.link,
          file: configFile,
          line: lines.lineOf(item.link),
          groups,
          target: navigationTarget(target),
        });
      }
      addLinks(item.items, [...groups, title], depth + 1);
    }
  };
  addLinks(config.links, ['links'], 0);
  if (isRecord(config.footer)) addLinks(config.footer.links, ['footer'], 0);

  // A page's `redirect:` names a page (or a URL): one that names no page sends readers nowhere.
  for (const [page, redirect] of redirects) {
    const target = resolveFrom(folderOf(page), pages.get(page)?.slice(0, 1) ?? [], redirect, 'link');
    if (target.kind !== 'broken') continue;
    const pageText = (await files.read(page)) ?? '';
    const line = pageText.split('\n').findIndex((written) => /^redirect\s*:/.test(written)) + 1;
    problems.push({
      file: page,
      line: line === 0 ? 1 : line,
      message: `The redirect to "${redirect}" names no page: ${target.reason}`,
      key: `redirect\0${redirect}`,
    });
  }

  return {
    framework: 'retype',
    siteRoot,
    configFiles: [configFile],
    pages,
    partials,
    navigation,
    needsNavigationEntry: () => false,
    pageAnchors: (_file, pageText) => readRetypeAnchors(pageText),
    resolveLink,
    configurationProblems: problems,
    unsupported,
    conventions: [
      `Links between pages name the Markdown file, relative to the page (\`../guides/setup.md\`) or from the input folder ${inputRoot || '(the repository root)'} with a leading \`/\` (\`/guides/setup.md\`); Retype rewrites them to the page's URL and warns of one that names no file. A URL (\`/guides/setup/\`) is not resolved.`,
      `Pages are the .md files under ${inputRoot || 'the repository root'}/ (names starting with \`.\` or \`_\` are left out), each at its path in lower case with spaces as \`-\`; a folder's page is its index.md (or default.md, readme.md).`,
      'The sidebar is made from the folders: a new page needs no navigation entry (`order:` and `label:` in its front matter, or an index.yml in its folder, place it).',
      'A file included with `{{ include "name" }}` is looked for in the page\'s folder, an `_includes/` folder beside it, then each folder above.',
    ],
  };
};

/** `retype.yml` (YAML) or `retype.json` (JSON) as a record, with its syntax errors. */
function readRetypeConfig(
  text: string,
  file: string,
): { config: Record<string, unknown>; problems: SiteProblem[] } {
  if (/\.json$/i.test(file)) {
    const errors: ParseError[] = [];
    const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
    const lines = new ConfigLines(text);
    return {
      config: isRecord(value) ? value : {},
      problems: errors.slice(0, 1).map((error) => ({
        file,
        line: lines.lineAt(error.offset),
        message: `${file} is not valid JSON: ${printParseErrorCode(error.error)}`,
        key: `configuration\0${printParseErrorCode(error.error)}`,
      })),
    };
  }
  const document = parseDocument(text, { logLevel: 'silent', uniqueKeys: false });
  const { value, problems } = yamlValue(document, file);
  return { config: isRecord(value) ? value : {}, problems: [...yamlProblems(document, file), ...problems] };
}

function readYamlRecord(text: string | null): Readonly<Record<string, unknown>> | null {
  if (text === null) return null;
  const document = parseDocument(text, { logLevel: 'silent', uniqueKeys: false });
  const { value } = yamlValue(document, '');
  return isRecord(value) ? value : null;
}

/**
 * Retype 4.6's partial configurations beside the main one (`retype.<id>.yml`, `retype.build.yml`;
 * not `retype._theme.yml`: https://retype.com/configuration/project-partials/).
 */
function isProjectPartial(siteRoot: string, path: string): boolean {
  return (
    folderOf(path) === siteRoot &&
    /^retype\.[a-z0-9][\w.-]*\.ya?ml$/i.test(path.slice(path.lastIndexOf('/') + 1))
  );
}

/** The path of `url` (`example.com/docs` serves the site under `/docs`), without a trailing slash. */
function basePathOf(url: unknown): string {
  if (typeof url !== 'string') return '';
  const withoutScheme = url.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const slash = withoutScheme.indexOf('/');
  if (slash < 0) return '';
  const path = withoutScheme
    .slice(slash)
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '');
  return path === ''
    ? ''
    : path
        .split('/')
        .map((segment) => slugSegment(segment, true))
        .join('/');
}

/** A `permalink:` (or its older name `route:`) as a route from the site's root, slugged as Retype links it. */
function permalinkOf(settings: Readonly<Record<string, unknown>> | null): string | null {
  const value = settings?.permalink ?? settings?.route;
  if (typeof value !== 'string') return null;
  const segments = value
    .trim()
    .split('/')
    .filter((segment) => segment !== '');
  return segments.length === 0 ? '' : `/${segments.map((segment) => slugSegment(segment, true)).join('/')}`;
}

/**
 * A file or folder name as it is in the page's URL: lower-cased (unless `generator.recase: none`),
 * each space a `-`, and every character but letters, digits, `_`, `.` and `-` dropped.
 */
export function slugSegment(segment: string, recase: boolean): string {
  const cased = recase ? segment.toLowerCase() : segment;
  return cased.replace(/ /g, '-').replace(/[^\p{L}\p{N}_.-]/gu, '');
}

/**
 * What Retype leaves out of a project: any name starting with `.` or `_`, `node_modules`, and what
 * `exclude` names, unless `include` names it (https://retype.com/configuration/project/#exclude):
 * both are `.gitignore` patterns matched without case.
 */
function createExclusion(
  exclude: unknown,
  include: unknown,
): ((relative: string) => boolean) & { included(relative: string): boolean } {
  const patterns = (value: unknown) =>
    (Array.isArray(value) ? value : typeof value === 'string' ? [value] : [])
      .filter((pattern): pattern is string => typeof pattern === 'string' && pattern.trim() !== '')
      .slice(0, maximumPatterns);
  const matcher = (list: string[]): Ignore | null => {
    if (list.length === 0) return null;
    try {
      return ignore({ ignorecase: true }).add(list);
    } catch {
      return null;
    }
  };
  const excluded = matcher(patterns(exclude));
  const included = matcher(patterns(include));
  const matches = (rules: Ignore | null, relative: string) => {
    if (rules === null || relative === '') return false;
    try {
      return rules.ignores(relative);
    } catch {
      return false;
    }
  };
  const test = (relative: string) =>
    (relative
      .split('/')
      .some((segment) => /^[._]/.test(segment) || segment.toLowerCase() === 'node_modules') ||
      matches(excluded, relative)) &&
    !matches(included, relative);
  return Object.assign(test, { included: (relative: string) => matches(included, relative) });
}
