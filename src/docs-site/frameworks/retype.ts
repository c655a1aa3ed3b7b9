import { posix } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import { parseDocument } from 'yaml';
import { ConfigLines } from '../config-lines.ts';
import { type PageAnchors, readRetypeAnchors } from '../heading-anchors.ts';
import {
  createCaseInsensitiveLookup,
  decodePath,
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
  const generator = isRecord(config.generator) ? config.generator : {};
  // With `generator.recase: none` Retype keeps names' case, in the site and when it matches links.
  const recase = generator.recase !== 'none';
  const lookup = recase ? anyCase : (path: string) => (files.has(path) ? path : undefined);
  const fold = (path: string) => (recase ? path.toLowerCase() : path);
  const leftOut = createExclusion(config.exclude, config.include);
  /** Whether Retype reads a file under `input` at all (its path relative to `input`). */
  const isRead = (relative: string) => !leftOut(relative);
  const folders = listFolders(files.paths);
  const isFolder = (path: string) => folders.has(path);
  const folderLookup = createCaseInsensitiveLookup([...folders]);
  const findFolder = (path: string) => (recase ? folderLookup(path) : isFolder(path) ? path : undefined);

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
  /** Pages named after their folder (`guides/guides.md`): a link to the folder names them first. */
  const sameNamePages = new Map<string, string>();
  const superseded = new Map<string, string>();
  const named = (folder: string, name: string) =>
    candidates.get(folder)?.find((path) => relativeTo(folder, path).toLowerCase() === name);
  for (const folder of folders) {
    if (!isWithin(inputRoot, folder)) continue;
    const base = folder.slice(folder.lastIndexOf('/') + 1).toLowerCase();
    const ranked = defaultPageNames.map((name) => named(folder, name)).filter((path) => path !== undefined);
    const rootRanked =
      folder === inputRoot && ranked.length === 0
        ? rootPageNames.map((name) => named(folder, name)).filter((path) => path !== undefined)
        : [];
    // `guides.md` beside `guides/` is that folder's page, before any in it (Retype 4.6 says
    // `Page "guides/index.md" is superseded by "guides.md"`, and of `guides/guides.md` too).
    const beside = folder === inputRoot ? undefined : named(folderOf(folder), `${base}.md`);
    const sameName = folder === inputRoot ? undefined : named(folder, `${base}.md`);
    const chosen = [...(beside === undefined ? [] : [beside]), ...ranked, ...rootRanked];
    // `guides/guides.md` too, unless the folder has an index, default or readme page (then it is a page
    // of its own, which a link to the folder names first).
    if (beside !== undefined && sameName !== undefined && ranked.length === 0) chosen.push(sameName);
    const first = chosen[0] ?? sameName;
    if (first === undefined) continue;
    folderPages.set(folder, first);
    for (const loser of chosen.slice(1)) superseded.set(loser, first);
    if (sameName !== undefined && !superseded.has(sameName)) sameNamePages.set(folder, sameName);
  }
  const pageFolders = new Map([...folderPages].map(([folder, page]) => [page, folder]));

  // Routes: each folder's from its parent's and its name (or a `permalink` its `index.yml` or its
  // page gives), each page's from its folder's and its name (or its own `permalink`).
  const frontMatters = new Map<string, Readonly<Record<string, unknown>> | null>();
  const frontMatterOf = async (page: string): Promise<Readonly<Record<string, unknown>> | null> => {
    const known = frontMatters.get(page);
    if (known !== undefined) return known;
    const facts = await source.pageFacts(page);
    // `page.yml` beside `page.md` holds the settings of a page without front matter.
    const beside = anyCase(page.replace(/\.md$/i, '.yml')) ?? anyCase(page.replace(/\.md$/i, '.yaml'));
    const settings =
      facts?.frontMatter ?? (beside === undefined ? null : readYamlRecord(await files.read(beside)));
    frontMatters.set(page, settings);
    return settings;
  };
  /** Permalinks Retype writes elsewhere than it links them; their lines are found once all are known. */
  const permalinkProblems: Array<SiteProblem & { value: string }> = [];
  /** A `permalink:` (or `route:`), reported when Retype writes the page elsewhere than it links it. */
  const permalinkOf = (settings: Readonly<Record<string, unknown>> | null, file: string): string | null => {
    const value = settings?.permalink ?? settings?.route;
    if (typeof value !== 'string') return null;
    const written = `/${value
      .trim()
      .split('/')
      .filter((segment) => segment !== '')
      .join('/')}`.replace(/\/$/, '');
    const linked = written
      .split('/')
      .map((segment) => slugSegment(segment, recase))
      .join('/');
    if (linked !== written)
      permalinkProblems.push({
        file,
        value,
        line: 1,
        message: `The permalink "${value}" is written as it is (${written}/) but every link to the page goes to ${linked}/: a 404 on a host that tells case apart; write it in lower case, with \`-\` for spaces`,
        key: `configuration\0permalink ${value}`,
      });
    return written;
  };
  const slug = (segment: string) => slugSegment(segment, recase);
  const folderRoutes = new Map<string, string>([[inputRoot, '']]);
  const settingsOf = async (folder: string) => {
    const file =
      anyCase(`${folder === '' ? '' : `${folder}/`}index.yml`) ??
      anyCase(`${folder === '' ? '' : `${folder}/`}index.yaml`);
    return file === undefined ? null : { file, settings: readYamlRecord(await files.read(file)) };
  };
  const folderRoute = async (folder: string): Promise<string> => {
    const known = folderRoutes.get(folder);
    if (known !== undefined) return known;
    const page = folderPages.get(folder);
    const folderSettings = await settingsOf(folder);
    const permalink =
      (folderSettings === null ? null : permalinkOf(folderSettings.settings, folderSettings.file)) ??
      (page === undefined ? null : permalinkOf(await frontMatterOf(page), page));
    const route =
      permalink ??
      `${await folderRoute(folderOf(folder))}/${slug(folder.slice(folder.lastIndexOf('/') + 1))}`;
    folderRoutes.set(folder, route);
    return route;
  };
  const pages = new Map<string, string[]>();
  const redirects = new Map<string, string>();
  const tags = new Set<string>();
  const categories = new Set<string>();
  for (const [folder, paths] of candidates) {
    for (const path of paths) {
      if (superseded.has(path)) continue;
      const frontMatter = await frontMatterOf(path);
      const pageFolder = pageFolders.get(path);
      const route =
        pageFolder !== undefined
          ? await folderRoute(pageFolder)
          : (permalinkOf(frontMatter, path) ??
            `${await folderRoute(folder)}/${slug(relativeTo(folder, path).replace(/\.md$/i, ''))}`);
      pages.set(path, route === '' ? [`${basePath}/`] : [`${basePath}${route}/`, `${basePath}${route}`]);
      const redirect = frontMatter?.redirect;
      if (typeof redirect === 'string' && redirect.trim() !== '') redirects.set(path, redirect.trim());
      for (const tag of stringsOf(frontMatter?.tags)) tags.add(slugSegment(tag, true));
      for (const category of [...stringsOf(frontMatter?.category), ...stringsOf(frontMatter?.categories)])
        categories.add(slugSegment(category, true));
    }
  }
  if (pages.size === 0)
    unsupported.push(
      `${configFile}: no pages under ${inputRoot || 'the repository root'}/ (nothing is checked)`,
    );
  for (const { value, ...problem } of permalinkProblems) {
    const text = await files.read(problem.file);
    problems.push({ ...problem, line: text === null ? 1 : new ConfigLines(text).lineOf(value) });
  }
  const routes = new Map<string, string>();
  for (const [page, served] of pages)
    for (const route of served) if (!routes.has(fold(route))) routes.set(fold(route), page);

  /**
   * Whether Retype copies a file that is not a page to the site (its path relative to `input`): all
   * of `.gitbook/`, and of what it reads, media and known resource types, whatever is under a
   * `static/`, `public/`, `assets/` or `resources/` folder, and what `include` names.
   */
  // Files a `[!file](x)` download names: Retype 4.6 copies them whatever their type.
  const downloads = new Set<string>();
  for (const page of pages.keys())
    for (const link of (await source.pageFacts(page))?.links ?? []) {
      if (link.title !== 'file' || isExternalUrl(link.url)) continue;
      const path = splitUrl(link.url).path;
      const file = lookup(
        (path.startsWith('/') ? joinInside(inputRoot, path.slice(1)) : joinInside(folderOf(page), path)) ??
          '',
      );
      if (file !== undefined && isWithin(inputRoot, file)) downloads.add(relativeTo(inputRoot, file));
    }
  const isCopied = (relative: string) =>
    !/\.md$/i.test(relative) &&
    (/(^|\/)\.gitbook\//i.test(relative) ||
      downloads.has(relative) ||
      (isRead(relative) &&
        (copiedExtensions.has(relative.slice(relative.lastIndexOf('.') + 1).toLowerCase()) ||
          copiedFolders.test(relative) ||
          leftOut.included(relative))));
  // Where the browser finds each copied file: its path under `input`, recased like the pages.
  const copiedAt = new Map<string, string>();
  for (const path of files.paths) {
    if (!isWithin(inputRoot, path)) continue;
    const relative = relativeTo(inputRoot, path);
    if (!isCopied(relative)) continue;
    copiedAt.set(fold(`${basePath}/${relative}`), path);
    copiedAt.set(`${basePath}/${relative.split('/').map(slug).join('/')}`, path);
  }
  // Retype 4.5 and later write each page's Markdown beside its folder (`/guide/setup.md`).
  for (const [page, served] of pages) {
    const route = served[0] ?? '/';
    copiedAt.set(
      fold(route === `${basePath}/` ? `${basePath}/index.md` : `${route.replace(/\/$/, '')}.md`),
      page,
    );
  }
  // Pages Retype writes itself (https://retype.com/configuration/reserved_words/): the tags and
  // categories pages when pages have some, the blog's summary pages when it has posts, the site's files.
  // The blog is the folder `blog.base` names (`blog` by default), `blog.pageSize` posts a page (10).
  const blog = isRecord(config.blog) ? config.blog : {};
  const blogName = typeof blog.base === 'string' && blog.base.trim() !== '' ? blog.base.trim() : 'blog';
  const blogBase = slugSegment(blogName, true);
  const blogFolder =
    findFolder(joinInside(inputRoot, blogName) ?? blogName) ?? joinInside(inputRoot, blogName) ?? blogName;
  const posts = [...pages.keys()].filter((page) => isWithin(blogFolder, page)).length;
  const pageSize = typeof blog.pageSize === 'number' && blog.pageSize >= 1 ? Math.floor(blog.pageSize) : 10;
  /** `/tags/`, `/tags/<tag>/`, `/categories/...`, `/blog/`, `/blog/<page number>/`, `/blog/feed.xml`, `/sitemap.xml`, ... */
  const isGenerated = (lower: string): boolean => {
    // Written with or without the base path (Retype resolves these links itself).
    const rest = lower.startsWith(`${basePath}/`) ? lower.slice(basePath.length + 1) : lower.slice(1);
    const segments = rest.replace(/\/$/, '').split('/');
    const [first = '', second] = segments;
    if (segments.length === 1 && ['404.html', 'sitemap.xml', 'robots.txt', 'llms.txt'].includes(first))
      return true;
    if (segments.length > 2) return false;
    if (first === 'tags' || first === 'categories') {
      const known = first === 'tags' ? tags : categories;
      return second === undefined ? known.size > 0 : known.has(second);
    }
    return (
      posts > 0 &&
      first === blogBase &&
      (second === undefined ||
        second === 'feed.xml' ||
        (/^\d+$/.test(second) && Number(second) >= 2 && Number(second) <= Math.ceil(posts / pageSize)))
    );
  };
  /** The page or file the browser finds at a URL path of the site (`exact`: as written, else as Retype writes it). */
  const servedAt = (urlPath: string, exact = false): LinkTarget | null => {
    const key = exact ? urlPath : fold(urlPath);
    const page = routes.get(key.endsWith('/') ? key : `${key}/`) ?? routes.get(key);
    if (page !== undefined) return { kind: 'file', file: page };
    const file = copiedAt.get(key.replace(/\/+$/, ''));
    if (file !== undefined) return { kind: 'file', file };
    return isGenerated(key.toLowerCase()) ? { kind: 'served', reason: 'a page Retype generates' } : null;
  };
  /** The first folder of `path` that is a file of its own (a symbolic link, which a checkout lists but never follows). */
  const linkedFolder = (path: string): string | undefined => {
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      const folder = anyCase(path.slice(0, slash));
      if (folder !== undefined && !isFolder(folder)) return folder;
    }
    return undefined;
  };

  /** What a source path (a repository path) names as Retype finds it; null when nothing is there. */
  const findTarget = (target: string, kind: 'link' | 'image'): LinkTarget | null => {
    const link = linkedFolder(target);
    if (link !== undefined)
      return { kind: 'unchecked', reason: `${link} is a symbolic link, not followed here` };
    if (!isWithin(inputRoot, target))
      return {
        kind: 'broken',
        reason: `${target} is outside the input folder ${inputRoot || '(the root)'}; Retype does not resolve it`,
      };
    const file = lookup(target);
    if (file !== undefined && !isFolder(file)) {
      if (pages.has(file)) return { kind: 'file', file };
      const winner = superseded.get(file);
      if (winner !== undefined)
        return {
          kind: 'broken',
          reason: `Retype builds ${winner} in its place (a folder has one page) and does not resolve it`,
        };
      const relative = relativeTo(inputRoot, file);
      if (isCopied(relative)) return { kind: 'file', file };
      if (!isRead(relative))
        return {
          kind: 'broken',
          reason: `Retype leaves ${file} out (names starting with \`.\` or \`_\`, \`node_modules\`, \`exclude\`)`,
        };
      return {
        kind: 'broken',
        reason: `Retype copies only media and known resource types, files under static/, public/, assets/ or resources/, and \`include\`d ones; ${file} is not copied`,
      };
    }
    // `x` names `x.md`, but not a folder's page by its name (`guide/index` names nothing).
    const name = target.slice(target.lastIndexOf('/') + 1).toLowerCase();
    const folder = findFolder(target);
    // A folder's page named after it (`x/x.md`) comes before `x.md` beside it (Retype 4.6).
    const sameNamePage = folder === undefined ? undefined : sameNamePages.get(folder);
    if (sameNamePage !== undefined && pages.has(sameNamePage)) return { kind: 'file', file: sameNamePage };
    const withExtension = ['index', 'default', 'readme'].includes(name) ? undefined : lookup(`${target}.md`);
    if (withExtension !== undefined && pages.has(withExtension)) return { kind: 'file', file: withExtension };
    if (folder === undefined) return null;
    // The blog's folder is its summary page, which Retype writes.
    if (folder === blogFolder && posts > 0)
      return { kind: 'served', reason: 'the blog, which Retype writes' };
    const page = folderPages.get(folder);
    if (page !== undefined && pages.has(page)) return { kind: 'file', file: page };
    // An HTML file serves a folder without a page (`generator.directoryIndex.altNames`).
    const html = ['index.html', 'index.htm', 'default.html', 'default.htm']
      .map((candidate) => lookup(`${folder}/${candidate}`))
      .find((candidate) => candidate !== undefined && isCopied(relativeTo(inputRoot, candidate)));
    if (html !== undefined) return { kind: 'file', file: html };
    return kind === 'image'
      ? null
      : { kind: 'broken', reason: `the folder ${folder} has no page (index.md, default.md or readme.md)` };
  };

  // Pages and copied files by name, for wikilinks.
  const wikiKey = (name: string) => name.replace(/\.md$/i, '').toLowerCase().replace(/[ _]/g, '-');
  const pagesByName = new Map<string, string>();
  for (const page of pages.keys()) {
    const key = wikiKey(page.slice(page.lastIndexOf('/') + 1));
    if (!pagesByName.has(key)) pagesByName.set(key, page);
  }
  // A folder's name names its page too (`[[templating]]` for templating/index.md).
  for (const [folder, page] of folderPages) {
    const key = wikiKey(folder.slice(folder.lastIndexOf('/') + 1));
    if (pages.has(page) && !pagesByName.has(key)) pagesByName.set(key, page);
  }
  const filesByName = new Map<string, string>();
  for (const file of copiedAt.values()) {
    const name = file.slice(file.lastIndexOf('/') + 1).toLowerCase();
    if (!filesByName.has(name)) filesByName.set(name, file);
  }

  /** What the browser finds at a path written in a page served at `pageRoute`, left as written. */
  const browserTarget = (pageRoute: string, written: string, exact = false): LinkTarget | null => {
    // The browser reads `\` as `/` in a web page's URL (the WHATWG URL standard's special schemes).
    const path = written.replace(/\\/g, '/');
    return servedAt(path.startsWith('/') ? path : resolveFromPageUrl(pageRoute, path), exact);
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
    // `x.md#` stops Retype on that page (`'anchor' has bad format`): it is not written at all.
    if (trimmed.endsWith('#') && !trimmed.endsWith('##') && (trimmed === '#' || !isExternalUrl(trimmed)))
      return {
        kind: 'broken',
        reason: "an empty fragment: Retype stops on it ('anchor' has bad format) and does not write the page",
      };
    if (isExternalUrl(trimmed)) return { kind: 'external' };
    const hash = trimmed.indexOf('#');
    const beforeFragment = hash < 0 ? trimmed : trimmed.slice(0, hash);
    const query = beforeFragment.indexOf('?');
    // `page.md/#anchor` names `page.md`.
    const path = (query < 0 ? beforeFragment : beforeFragment.slice(0, query)).replace(/(\.md)\/+$/i, '$1');
    if (path === '') return { kind: 'external' };
    // A wikilink (`[[Page name]]`) names a page anywhere in the project by its file name (spaces
    // and `-` alike, without case), or by its path; not by its title (Retype 4.6).
    if (path.startsWith('[[')) {
      const key = path.slice(2, -2).trim();
      const byPath = key.includes('/')
        ? findTarget(joinInside(inputRoot, key.replace(/^\/+/, '')) ?? '', kind)
        : null;
      if (byPath !== null && byPath.kind !== 'broken') return byPath;
      const found = pagesByName.get(wikiKey(key.slice(key.lastIndexOf('/') + 1)));
      if (found !== undefined) return { kind: 'file', file: found };
      if (kind === 'image') {
        const file = filesByName.get(key.slice(key.lastIndexOf('/') + 1).toLowerCase());
        if (file !== undefined) return { kind: 'file', file };
      }
      return {
        kind: 'broken',
        reason: `no page or file named ${key} in the project; Retype warns that the URL was not resolved`,
      };
    }
    // Retype does not decode a path: `%20` names no file; the browser decodes what Retype leaves.
    if (/%[0-9a-f]{2}/i.test(path)) {
      for (const route of pageRoutes.slice(0, 20)) {
        const served = browserTarget(route, decodePath(path));
        if (served !== null && served.kind === 'file' && !pages.has(served.file))
          return {
            kind: 'served',
            reason: `${served.file}, which the browser finds once it decodes the path`,
          };
      }
      return {
        kind: 'broken',
        reason:
          'Retype does not decode a percent-encoded path (`%20`) and finds no file; write the name as it is (in `<...>` when it has spaces)',
      };
    }
    const target = path.startsWith('/')
      ? joinInside(inputRoot, path.replace(/^\/+/, ''))
      : joinInside(folder, path);
    const found = target === null ? null : findTarget(target.replace(/(?<!\/)\/+$/, ''), kind);
    if (found !== null && found.kind !== 'broken') return found;
    // A file not at its path is looked for in the usual folders, at its path and by its name
    // (Retype 4.4; images and other copied files, not pages).
    const stripped = path.replace(/^(\.{0,2}\/)+/, '');
    for (const fallback of imageFolders) {
      for (const candidate of [
        `${fallback}/${stripped}`,
        `${fallback}/${stripped.slice(stripped.lastIndexOf('/') + 1)}`,
      ]) {
        const joined = joinInside(inputRoot, candidate);
        const file = joined === null ? undefined : lookup(joined);
        if (file !== undefined && isCopied(relativeTo(inputRoot, file))) return { kind: 'file', file };
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

  // A link to a page with `redirect:` is written as the way from that page's own URL to the
  // redirect's target (Retype 4.6, with `generator.paths: relative`, the default): it leads there only
  // from a page at the same depth.
  const relativePaths = generator.paths === undefined || generator.paths === 'relative';
  const redirectTargets = new Map<string, LinkTarget>();
  for (const [page, redirect] of redirects)
    redirectTargets.set(
      page,
      resolveFrom(folderOf(page), pages.get(page)?.slice(0, 1) ?? [], redirect, 'link'),
    );
  const throughRedirect = (page: string, fromRoutes: readonly string[]): LinkTarget | null => {
    const target = redirectTargets.get(page);
    if (target === undefined) return null;
    if (target.kind === 'broken')
      return {
        kind: 'broken',
        reason: `${page} redirects to "${redirects.get(page)}", which names no page, and Retype writes the link as that`,
      };
    if (target.kind !== 'file' || !relativePaths) return { kind: 'served', reason: `${page} redirects` };
    const own = pages.get(page)?.[0];
    const there =
      pages.get(target.file)?.[0] ?? copiedAt.get(fold(`${basePath}/${relativeTo(inputRoot, target.file)}`));
    const from = fromRoutes[0];
    if (own === undefined || there === undefined || from === undefined)
      return { kind: 'served', reason: `${page} redirects` };
    const href = `${posix.relative(own, there) || '.'}${there.endsWith('/') ? '/' : ''}`;
    const reached = resolveFromPageUrl(from, href);
    return servedAt(reached)?.kind === 'file'
      ? { kind: 'served', reason: `${page} redirects to ${target.file}` }
      : {
          kind: 'broken',
          reason: `${page} redirects to ${target.file}, and Retype writes the link as the way from ${own} (${href}), which from here leads to ${reached}`,
        };
  };

  // Templating (`{{ include }}`) is on unless `templating.enabled: false` in the project or
  // `templating: false` in a page (which `templating: true` turns back on).
  const projectTemplating = !(isRecord(config.templating) && config.templating.enabled === false);
  const templated = (file: string): boolean => {
    const setting = frontMatters.get(file)?.templating;
    return setting === true || (setting !== false && projectTemplating);
  };

  // Files pages include (`{{ include "name" }}`): their links are checked from their own folder.
  const partials = new Set<string>();
  const resolveInclude = (from: string, url: string): LinkTarget => {
    const name = url.trim().split('#')[0] ?? '';
    if (name === '') return { kind: 'external' };
    const named_ = (folder: string, written: string) => {
      const joined = joinInside(folder, written);
      if (joined === null) return undefined;
      const file = lookup(joined) ?? lookup(`${joined}.md`);
      return file === undefined || isFolder(file) ? undefined : file;
    };
    const places: Array<[string, string]> = [];
    if (/^\.{1,2}\//.test(name)) places.push([folderOf(from), name]);
    else if (name.startsWith('/')) places.push([inputRoot, name.slice(1)]);
    else {
      // A bare name: the page's folder and its `_includes/`, then each folder above and its
      // `_includes/`; a name with a folder in it (`parts/p`): from the page's folder, or an
      // `_includes/` folder here or above.
      for (let folder = folderOf(from); ; folder = folderOf(folder)) {
        if (!name.includes('/') || folder === folderOf(from)) places.push([folder, name]);
        places.push([folder === '' ? '_includes' : `${folder}/_includes`, name]);
        if (folder === '' || folder === inputRoot || !isWithin(inputRoot, folder)) break;
      }
    }
    for (const [folder, written] of places) {
      const file = named_(folder, written);
      if (file !== undefined) return { kind: 'file', file };
    }
    return {
      kind: 'broken',
      reason: `no file ${name} to include ${name.includes('/') ? "from the page's folder or an `_includes` folder" : "in the page's folder, an `_includes` folder or a folder above"}; Retype warns that the partial was not resolved`,
    };
  };
  /** The pages that include each partial, whose URLs its links are read from in the browser. */
  const includingPages = new Map<string, Set<string>>();
  /** Each file's includes, resolved (null for one that names no file), and the partials' texts. */
  const includes = new Map<string, Array<string | null>>();
  const partialTexts = new Map<string, string>();
  const includers = [...pages.keys()];
  while (includers.length > 0 && partials.size < 10_000) {
    const includer = includers.pop() as string;
    if (pages.has(includer) && !templated(includer)) continue;
    const including = pages.has(includer) ? [includer] : [...(includingPages.get(includer) ?? [])];
    const resolved: Array<string | null> = [];
    for (const link of (await source.pageFacts(includer))?.links ?? []) {
      if (link.kind !== 'import' || link.title !== 'include') continue;
      const target = resolveInclude(includer, link.url);
      resolved.push(target.kind === 'file' ? target.file : null);
      if (target.kind !== 'file' || pages.has(target.file) || !/\.md$/i.test(target.file)) continue;
      const known = includingPages.get(target.file) ?? new Set<string>();
      const added = including.filter((page) => !known.has(page) && known.size < 20);
      for (const page of added) known.add(page);
      includingPages.set(target.file, known);
      if (partials.has(target.file) && added.length === 0) continue;
      partials.add(target.file);
      partialTexts.set(target.file, (await files.read(target.file)) ?? '');
      includers.push(target.file);
    }
    if (!includes.has(includer)) includes.set(includer, resolved);
  }
  // Every page shows these (https://retype.com/templating/includes/).
  for (const name of ['top.md', 'bottom.md']) {
    const file = anyCase(joinInside(inputRoot, `_includes/${name}`) ?? '');
    if (file !== undefined) partials.add(file);
  }

  /** A page's anchors with those of the files it includes, when every one of them is known. */
  const pageAnchors = (file: string, pageText: string): PageAnchors => {
    const own = readRetypeAnchors(pageText);
    if (own.complete) return own;
    // Without templating, an include is text.
    if (!templated(file)) return { ...own, complete: true };
    const anchors = new Set(own.anchors);
    const seen = new Set<string>([file]);
    const queue = [...(includes.get(file) ?? [null])];
    let sources = 1;
    while (queue.length > 0) {
      const included = queue.pop();
      // An include that names no file renders `[UNRESOLVED PARTIAL]`: no heading of its own.
      if (included === null || included === undefined) continue;
      if (seen.has(included)) continue;
      sources += 1;
      seen.add(included);
      // A page included in another is read elsewhere: its anchors are not known here.
      const includedText = partialTexts.get(included);
      if (includedText === undefined) return own;
      for (const anchor of readRetypeAnchors(includedText).anchors) anchors.add(anchor);
      queue.push(...(includes.get(included) ?? []));
    }
    // Repeated headings are numbered across the page and what it includes (`dup`, `dup-1`, ...):
    // each id may carry a number up to the files read.
    for (const anchor of [...anchors])
      for (let number = 1; number < Math.min(sources, 10); number += 1) anchors.add(`${anchor}-${number}`);
    return { anchors, complete: true, caseInsensitive: true };
  };

  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    const kind = link?.kind ?? 'link';
    if (kind === 'import' && (link?.title === 'include' || link?.title === 'include-text'))
      return templated(from)
        ? resolveInclude(from, url)
        : { kind: 'unchecked', reason: 'templating is off: shown as text' };
    // A download (`[!file](x)`) of a file Retype copies for it.
    if (link?.title === 'file') {
      const path = splitUrl(url.trim()).path;
      const file = isExternalUrl(url.trim())
        ? undefined
        : lookup(
            (path.startsWith('/')
              ? joinInside(inputRoot, path.slice(1))
              : joinInside(folderOf(from), path)) ?? '',
          );
      if (file !== undefined && downloads.has(relativeTo(inputRoot, file))) return { kind: 'file', file };
    }
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
      const found = lookup(file);
      return found !== undefined
        ? { kind: 'file', file: found }
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
    // reads them from the page's URL, and tells case apart.
    if (kind === 'html' || link?.attribute === true) {
      const trimmed = url.trim();
      if (isExternalUrl(trimmed)) return { kind: 'external' };
      const path = splitUrl(trimmed).path;
      if (path === '') return { kind: 'external' };
      const first = pageRoutes[0];
      if (first === undefined) return { kind: 'unchecked', reason: 'no page includes the file' };
      for (const pageRoute of pageRoutes.slice(0, 20)) {
        const served = browserTarget(pageRoute, path, true);
        if (served !== null) return served;
      }
      return {
        kind: 'broken',
        reason: `Retype leaves HTML links as written, and the browser finds no page or file at ${path.startsWith('/') ? path : resolveFromPageUrl(first, path.replace(/\\/g, '/'))}`,
      };
    }
    const target = resolveFrom(folderOf(from), pageRoutes, url, kind === 'image' ? 'image' : 'link');
    if (target.kind === 'file' && redirects.has(target.file))
      return throughRedirect(target.file, pageRoutes) ?? target;
    return target;
  };

  // The top bar's and the footer's links, resolved like a page's links from `input`
  // (https://retype.com/configuration/project/#links).
  const lines = new ConfigLines(text);
  const navigation: NavigationEntry[] = [];
  const addLinks = (value: unknown, groups: string[], depth: number, deepest: number) => {
    if (!Array.isArray(value) || depth > deepest) return;
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
      addLinks(item.items, [...groups, title], depth + 1, deepest);
    }
  };
  // The top bar shows one level of `items` (deeper ones are not rendered); the footer's are all read.
  addLinks(config.links, ['links'], 0, 1);
  if (isRecord(config.footer)) addLinks(config.footer.links, ['footer'], 0, 3);
  if (isRecord(config.hub)) addLinks([config.hub], ['hub'], 0, 0);
  // The logo and favicon files must be there: Retype warns of one that is not.
  const branding = isRecord(config.branding) ? config.branding : {};
  for (const [setting, value] of [
    ['branding.logo', branding.logo],
    ['branding.logoDark', branding.logoDark],
    ['favicon', config.favicon],
  ] as const) {
    if (typeof value !== 'string' || value.trim() === '' || isExternalUrl(value.trim())) continue;
    const file = joinInside(inputRoot, value.trim().replace(/^\/+/, ''));
    if (file === null || lookup(file) !== undefined || linkedFolder(file) !== undefined) continue;
    problems.push({
      file: configFile,
      line: lines.lineOf(value),
      message: `\`${setting}\` names ${value}, which is not under ${inputRoot || 'the root'}/: Retype warns and shows none`,
      key: `configuration\0${setting}`,
    });
  }

  // A page's `redirect:` names a page (or a URL): one that names no page sends readers nowhere.
  for (const [page, redirect] of redirects) {
    const target = redirectTargets.get(page);
    if (target?.kind !== 'broken') continue;
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
    pageAnchors,
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

/** The strings of a front-matter value: a string or a list of them. */
function stringsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((item): item is string => typeof item === 'string' && item.trim() !== '').slice(0, 100);
}

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
 * both are `.gitignore` patterns matched without case, but a `!` pattern takes back a file inside
 * an excluded folder too.
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
  const excludePatterns = patterns(exclude);
  const excluded = matcher(excludePatterns);
  // Unlike Git, Retype takes back a file a `!` pattern names inside a folder it excludes.
  const negated = matcher(
    excludePatterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1)),
  );
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
      (matches(excluded, relative) && !matches(negated, relative))) &&
    !matches(included, relative);
  return Object.assign(test, { included: (relative: string) => matches(included, relative) });
}
