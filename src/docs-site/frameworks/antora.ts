import { folderOf, isExternalUrl, joinInside, listFolders, normalizeRoute } from '../link-urls.ts';
import type { LinkTarget, NavigationEntry, PageLink, SiteModel, SiteModelBuilder } from '../site-model.ts';
import {
  type AntoraComponent,
  hasOtherContentSources,
  parseResourceId,
  type ResourceId,
  readAntoraComponents,
} from './antora-components.ts';

// Family folders of a module (https://docs.antora.org/antora/latest/family-directories/).
const familyFolders: Record<string, string> = {
  pages: 'page',
  partials: 'partial',
  examples: 'example',
  images: 'image',
  attachments: 'attachment',
};
// Built-in attributes that name a family (https://docs.antora.org/antora/latest/page/intrinsic-attributes/).
const familyAttributes: Record<string, string> = {
  partialsdir: 'partial$',
  examplesdir: 'example$',
  imagesdir: 'image$',
  attachmentsdir: 'attachment$',
};
const navigationItemPattern = /^\*+\s.*?xref:((?:(?!xref:)[^\s[\]])+)\[/;

/** Where a file sits in the content catalog: its component version, module, family and path. */
interface Place {
  component: AntoraComponent;
  module: string;
  family: string;
  relative: string;
}

/**
 * Antora (https://docs.antora.org/antora/latest/): each `antora.yml` is a component version whose
 * `modules/<module>/<family>/` folders hold pages (`.adoc`, published at
 * `/<component>/<version>/<module>/<page>.html`, ROOT and a versionless `~` left out), partials,
 * examples, images and attachments. Pages name each other by resource ID (`xref:module:page.adoc`),
 * include partials and examples (`include::partial$x.adoc[]`), and embed images from their
 * module; the navigation is the `nav` files the descriptor lists. A component the repository does
 * not hold (another content source of the site's playbook) is unchecked.
 */
export const buildAntoraSite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const components = await readAntoraComponents(files);
  const unsupported: string[] = [];
  const catalog = new Map<string, string>();
  const places = new Map<string, Place>();
  const pages = new Map<string, string[]>();
  for (const component of components) {
    const modulesFolder = component.root === '' ? 'modules/' : `${component.root}/modules/`;
    for (const path of files.paths) {
      if (!path.startsWith(modulesFolder)) continue;
      const [module, ...inside] = path.slice(modulesFolder.length).split('/');
      // Antora 1's `assets/images` and `assets/attachments` are still read.
      if (inside[0] === 'assets' && (inside[1] === 'images' || inside[1] === 'attachments')) inside.shift();
      const [folder, ...rest] = inside;
      const family = familyFolders[folder ?? ''];
      if (module === undefined || family === undefined || rest.length === 0) continue;
      const relative = rest.join('/');
      const place = { component, module, family, relative };
      places.set(path, place);
      catalog.set(catalogKey(component.name, component.version, module, family, relative), path);
      // Files and folders starting with `_` or `.` are not published (they may still be included).
      if (family === 'page' && relative.endsWith('.adoc') && !/(^|\/)[_.]/.test(relative))
        pages.set(path, [pageUrl(component, module, relative)]);
    }
    if (component.version === null)
      unsupported.push(
        `${component.file}: the version is taken from the branch at build time (\`version: true\`); URLs are shown without it`,
      );
    if (component.collected)
      unsupported.push(
        `${component.file}: the Antora Collector adds generated content at build time; references to pages it may add are unchecked`,
      );
  }
  const componentNames = new Set(components.map((component) => component.name));
  const otherSources = await hasOtherContentSources(files);
  if (otherSources)
    unsupported.push(
      'the playbook builds the site from other repositories too; xrefs to pages this repository does not hold are unchecked',
    );
  const aliases = await collectAliases(source, pages, places);

  /** The file a resource ID names, or why it cannot be told. */
  const lookUp = (id: ResourceId): { file: string } | { unchecked: string } | null => {
    if (!componentNames.has(id.component))
      return { unchecked: `the component ${id.component} is not in this repository` };
    for (const component of components) {
      if (component.name !== id.component) continue;
      if (typeof id.version === 'string' && component.version !== null && component.version !== id.version)
        continue;
      const file = catalog.get(
        catalogKey(component.name, component.version, id.module, id.family, id.relative),
      );
      if (file !== undefined) return { file };
    }
    return null;
  };
  const folders = listFolders(files.paths);
  const holdsFolder = (id: ResourceId): boolean =>
    components.some((component) => {
      if (component.name !== id.component) return false;
      const family =
        Object.keys(familyFolders).find((folder) => familyFolders[folder] === id.family) ?? 'pages';
      const base = component.root === '' ? 'modules' : `${component.root}/modules`;
      return folders.has(folderOf(`${base}/${id.module}/${family}/${id.relative}`));
    });
  const placeOf = (file: string): Place | undefined => places.get(file) ?? navigationPlace(file, components);

  /** Where a link leads; one written under a preprocessor condition is never reported as broken. */
  const resolveLink = (
    from: string,
    url: string,
    link?: Pick<PageLink, 'kind' | 'title' | 'conditional'>,
  ): LinkTarget => {
    const target = resolveAnyLink(from, url, link);
    if (target.kind !== 'broken') return target;
    if (link?.conditional === true)
      return { kind: 'unchecked', reason: `written under a preprocessor condition (${target.reason})` };
    // A partial's xrefs are resolved in the page that includes it, whatever its module.
    if (places.get(from)?.family === 'partial' && url.startsWith('xref:'))
      return { kind: 'unchecked', reason: `resolved in the including page (${target.reason})` };
    return target;
  };

  const resolveAnyLink = (from: string, url: string, link?: Pick<PageLink, 'kind' | 'title'>): LinkTarget => {
    const place = placeOf(from);
    const written = expandAttributes(url, place?.component);
    if (written === null) return { kind: 'unchecked', reason: 'an attribute this model does not know' };
    if (place === undefined) return { kind: 'unchecked', reason: 'the file is in no module' };
    const context = {
      component: place.component.name,
      version: place.component.version,
      module: place.module,
      relative: place.relative,
    };
    if (written.startsWith('xref:')) {
      const [pathPart = '', fragment] = written.slice('xref:'.length).split('#');
      // `xref:page#anchor[]` names page.adoc (Asciidoctor's inter-document form); without `.adoc`,
      // a fragment or a family, an xref names an anchor of the page itself.
      const target =
        fragment !== undefined && pathPart !== '' && !/\.\w+$/.test(pathPart) && !pathPart.includes('$')
          ? `${pathPart}.adoc`
          : pathPart;
      if (target === '' || (!target.endsWith('.adoc') && !target.includes('$'))) return { kind: 'external' };
      const id = parseResourceId(target, context, 'page');
      if (id === undefined) return { kind: 'broken', reason: `${target} is no resource ID` };
      const found = lookUp(id);
      if (found === null) {
        // A component named without a version means its (latest) version, as the aliases are keyed.
        const version =
          id.version ?? components.find((component) => component.name === id.component)?.version ?? '';
        if (aliases.has(catalogKey(id.component, version, id.module, id.family, id.relative)))
          return { kind: 'served', reason: 'a page alias' };
        if (components.some((component) => component.name === id.component && component.collected))
          return { kind: 'unchecked', reason: 'the Antora Collector may add it' };
        if (otherSources)
          return { kind: 'unchecked', reason: 'another content source of the playbook may hold it' };
        // A component version may be distributed over several repositories (Couchbase's CLI pages
        // come from the CLI's own): a page in a folder this repository does not hold may be theirs.
        if (!holdsFolder(id))
          return {
            kind: 'unchecked',
            reason: `no folder of ${describe(id)} here: another repository of the component may hold it`,
          };
        return { kind: 'broken', reason: `target of xref not found: ${describe(id)}` };
      }
      return 'file' in found
        ? { kind: 'file', file: found.file }
        : { kind: 'unchecked', reason: found.unchecked };
    }
    if (isExternalUrl(written) || /^data:/.test(written)) return { kind: 'external' };
    const isImage = link?.kind === 'image';
    // An image named through an attribute (`{icondir}`) may come from the site's UI bundle.
    if (isImage && url.includes('{'))
      return { kind: 'unchecked', reason: 'an image named through an attribute' };
    if (link?.kind === 'import' || isImage) {
      const spec = written.split('#')[0] ?? '';
      // A resource ID (it names a family), or, for an include, a path from the including file.
      if (!spec.includes('$') && !isImage) {
        const file = joinInside(folderOf(from), spec);
        if (file === null) return { kind: 'unchecked', reason: 'the path leaves the repository' };
        return files.has(file)
          ? { kind: 'file', file }
          : { kind: 'broken', reason: `target of include not found: ${file}` };
      }
      const id = parseResourceId(spec, { ...context, relative: '' }, 'image');
      if (id === undefined) return { kind: 'broken', reason: `${spec} is no resource ID` };
      const found = lookUp(id);
      if (found === null)
        return {
          kind: 'broken',
          reason: `${isImage ? 'image' : 'target of include'} not found: ${describe(id)}`,
        };
      return 'file' in found
        ? { kind: 'file', file: found.file }
        : { kind: 'unchecked', reason: found.unchecked };
    }
    return { kind: 'unchecked', reason: 'Antora does not check this link' };
  };

  const navigation = await readNavigation(source, components, resolveLink);
  const navigationFiles = components.flatMap((component) => component.nav);
  const model: SiteModel = {
    framework: 'antora',
    siteRoot,
    configFiles: [...components.map((component) => component.file), ...navigationFiles],
    pages,
    partials: new Set(
      [...places]
        .filter(([, place]) => place.family === 'partial' && place.relative.endsWith('.adoc'))
        .map(([file]) => file),
    ),
    navigation,
    needsNavigationEntry: (file) => pages.has(file) && (places.get(file)?.component.nav.length ?? 0) > 0,
    navigationFileFor: (file) => {
      const place = places.get(file);
      if (place === undefined) return navigationFiles[0] ?? siteRoot;
      const own = place.component.nav.find(
        (nav) => nav.includes(`/modules/${place.module}/`) || nav.startsWith(`modules/${place.module}/`),
      );
      return own ?? place.component.nav[0] ?? place.component.file;
    },
    resolveLink,
    configurationProblems: [],
    unsupported,
    conventions: [
      'Pages are AsciiDoc (`.adoc`) files under `modules/<module>/pages/` beside `antora.yml`; a page is named by its resource ID (`page.adoc` in the same module, `module:page.adoc`, `component:module:page.adoc`).',
      "Link a page with `xref:path/page.adoc[Text]` (the path from the module's `pages/` folder, with `.adoc`), include reusable text with `include::partial$name.adoc[]`, and images with `image::name.png[Alt]` from the module's `images/` folder.",
      'A new page goes into the navigation file of its module (`modules/<module>/nav.adoc`) as `* xref:path/page.adoc[Title]`, nested with more `*` under its parent.',
    ],
  };
  return model;
};

function catalogKey(
  component: string,
  version: string | null,
  module: string,
  family: string,
  relative: string,
): string {
  return `${version ?? ''}@${component}:${module}:${family}$${relative}`;
}

function describe(id: ResourceId): string {
  return `${id.version ? `${id.version}@` : ''}${id.component}:${id.module}:${id.family === 'page' ? '' : `${id.family}$`}${id.relative}`;
}

function pageUrl(component: AntoraComponent, module: string, relative: string): string {
  const segments = [
    component.name === 'ROOT' ? '' : component.name,
    component.version ?? '',
    module === 'ROOT' ? '' : module,
    relative.replace(/\.adoc$/, '.html'),
  ];
  return normalizeRoute(segments.filter((segment) => segment !== '').join('/'));
}

/** `{name}` references replaced by the component's attributes and the family ones; null when one is unknown. */
function expandAttributes(url: string, component: AntoraComponent | undefined): string | null {
  if (!url.includes('{')) return url;
  let unknown = false;
  const expanded = url.replace(/\{([\w-]+)\}\/?/g, (whole, name: string) => {
    const family = familyAttributes[name];
    if (family !== undefined) return family;
    const value = component?.attributes.get(name);
    if (value === undefined) {
      unknown = true;
      return whole;
    }
    return whole.endsWith('/') ? `${value}/` : value;
  });
  return unknown || expanded.includes('{') ? null : expanded;
}

/** A navigation file's place: the module whose folder holds it. */
function navigationPlace(file: string, components: readonly AntoraComponent[]): Place | undefined {
  for (const component of components) {
    if (!component.nav.includes(file)) continue;
    const module = /modules\/([^/]+)\//.exec(file.slice(component.root.length))?.[1] ?? 'ROOT';
    return { component, module, family: 'nav', relative: '' };
  }
  return undefined;
}

/** `:page-aliases:` of every page, as catalog keys: old names that still lead to the page. */
async function collectAliases(
  source: Parameters<SiteModelBuilder>[0],
  pages: ReadonlyMap<string, readonly string[]>,
  places: ReadonlyMap<string, Place>,
): Promise<Set<string>> {
  const aliases = new Set<string>();
  for (const file of pages.keys()) {
    const value = (await source.pageFacts(file))?.frontMatter?.['page-aliases'];
    const place = places.get(file);
    if (typeof value !== 'string' || place === undefined) continue;
    for (const alias of value.split(',')) {
      const id = parseResourceId(
        alias.trim(),
        {
          component: place.component.name,
          version: place.component.version,
          module: place.module,
          relative: place.relative,
        },
        'page',
      );
      if (id !== undefined)
        aliases.add(
          catalogKey(
            id.component,
            id.version ?? place.component.version ?? '',
            id.module,
            id.family,
            id.relative,
          ),
        );
    }
  }
  return aliases;
}

/** The `xref:` entries of every navigation file, with their line. */
async function readNavigation(
  source: Parameters<SiteModelBuilder>[0],
  components: readonly AntoraComponent[],
  resolveLink: SiteModel['resolveLink'],
): Promise<NavigationEntry[]> {
  const navigation: NavigationEntry[] = [];
  for (const component of components) {
    for (const file of component.nav) {
      const text = await source.files.read(file);
      if (text === null) continue;
      // `//` lines and `////` blocks are comments: an entry commented out lists nothing.
      let comment: string | null = null;
      for (const [index, line] of text.split(/\r?\n/).entries()) {
        if (comment !== null) {
          if (line.trimEnd() === comment) comment = null;
          continue;
        }
        const commentStart = /^(\/{4,})\s*$/.exec(line)?.[1];
        if (commentStart !== undefined) {
          comment = commentStart;
          continue;
        }
        if (line.startsWith('//')) continue;
        const reference = navigationItemPattern.exec(line)?.[1];
        if (reference === undefined) continue;
        const target = resolveLink(file, `xref:${reference}`, { kind: 'link' });
        navigation.push({
          reference,
          file,
          line: index + 1,
          groups: [component.name],
          target:
            target.kind === 'file'
              ? target.file
              : target.kind === 'unchecked' || target.kind === 'served'
                ? { unchecked: target.reason }
                : target.kind === 'external'
                  ? { unchecked: 'an anchor' }
                  : null,
        });
      }
    }
  }
  return navigation;
}
