import {
  readWritersideAnchors,
  readWritersideTopicAnchors,
  type WritersideIdMethod,
} from '../heading-anchors.ts';
import {
  createCaseInsensitiveLookup,
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  splitUrl,
} from '../link-urls.ts';
import type { NavigationEntry, SiteModel, SiteModelBuilder, SiteProblem } from '../site-model.ts';
import { readXmlElements } from '../xml-elements.ts';

const topicPattern = /\.(md|topic)$/i;

/**
 * JetBrains Writerside (https://www.jetbrains.com/help/writerside/), read as its builder reads a
 * help module: `writerside.cfg` (or the older `project.ihp`) names the topic folders, the images and
 * snippets folders, the variables file and the instances, each a `.tree` file whose
 * `<toc-element topic="x.md">` entries are the topics it builds. A topic is known by its file name
 * alone, wherever it is under a topic folder, and served flat at its name in lower case with
 * `.html`; a link names a topic by that file name (`[x](other.md#anchor)`, `<a href="other.topic">`),
 * and an image by its name in the images folder. A topic no instance lists is not built, and a link
 * to it fails the build.
 */
export const buildWritersideSite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const anyCase = createCaseInsensitiveLookup(files.paths);
  const configFile =
    anyCase(inRoot('writerside.cfg')) ?? anyCase(inRoot('project.ihp')) ?? inRoot('writerside.cfg');
  const problems: SiteProblem[] = [];
  const unsupported: string[] = [];
  const readXml = async (file: string) => {
    const { elements, error } = readXmlElements((await files.read(file)) ?? '');
    if (error !== null)
      problems.push({
        file,
        line: error.line,
        message: `${file} is not valid XML: ${error.message}`,
        key: `configuration\0${error.message}`,
      });
    return elements;
  };
  const config = await readXml(configFile);
  const folderSetting = (name: string, fallback: string | null): string | null => {
    const element = config.find((candidate) => candidate.name === name);
    const value = element?.attributes.dir ?? element?.attributes.src ?? fallback;
    return value === null || value === undefined ? null : joinInside(siteRoot, value);
  };
  const topicFolders = config
    .filter((element) => element.name === 'topics')
    .map((element) => joinInside(siteRoot, element.attributes.dir ?? 'topics'))
    .filter((folder): folder is string => folder !== null);
  if (topicFolders.length === 0) topicFolders.push(inRoot('topics'));
  const imagesFolder = folderSetting('images', 'images');
  const snippetsFolder = folderSetting('snippets', null);
  const idMethod: WritersideIdMethod =
    (config.find((element) => element.name === 'id-generator-method')?.text.trim() as
      | WritersideIdMethod
      | undefined) ?? 'DEFAULT';

  // Topics by file name, from every topic folder (a name is the topic's identity in the module).
  const topics = new Map<string, string>();
  const duplicates = new Set<string>();
  for (const path of files.paths) {
    if (!topicPattern.test(path) || !topicFolders.some((folder) => isWithin(folder, path))) continue;
    const name = path.slice(path.lastIndexOf('/') + 1);
    const known = topics.get(name);
    if (known !== undefined && known !== path) duplicates.add(name);
    else topics.set(name, path);
  }
  const topicNamed = createCaseInsensitiveLookup([...topics.keys()]);
  const topicOf = (name: string): string | undefined => {
    const found = topicNamed(name);
    return found === undefined ? undefined : topics.get(found);
  };
  if (duplicates.size > 0)
    unsupported.push(
      `${configFile}: ${duplicates.size} topic file names are used twice (${[...duplicates].slice(0, 3).join(', ')}); the first of each is read`,
    );

  // Variables (`v.list`): `%name%` in a link is its value.
  const variables = new Map<string, string>();
  const varsFile = folderSetting('vars', 'v.list');
  if (varsFile !== null && files.has(varsFile))
    for (const element of await readXml(varsFile))
      if (element.name === 'var' && element.attributes.name !== undefined)
        variables.set(element.attributes.name, element.attributes.value ?? element.text.trim());

  // Instances: each tree's topics are what it builds.
  const navigation: NavigationEntry[] = [];
  const built = new Set<string>();
  const servedNames = new Set<string>();
  const trees: string[] = [];
  const libraryTrees: string[] = [];
  for (const instance of config.filter((element) => element.name === 'instance')) {
    const tree = joinInside(siteRoot, instance.attributes.src ?? '');
    if (tree === null || !files.has(tree)) {
      problems.push({
        file: configFile,
        line: instance.line,
        message: `The instance "${instance.attributes.src ?? ''}" names no tree file`,
        key: `configuration\0instance ${instance.attributes.src ?? ''}`,
      });
      continue;
    }
    const elements = await readXml(tree);
    const profile = elements.find((element) => element.name === 'instance-profile');
    // A library tree (`is-library="true"`) holds shared topics; some projects mark their only
    // instance so and build it: its topics count as built, and new topics go to another tree first.
    if (profile?.attributes['is-library'] === 'true') libraryTrees.push(tree);
    else trees.push(tree);
    const instanceName = profile?.attributes.name ?? profile?.attributes.id ?? tree;
    const startPage = profile?.attributes['start-page'];
    if (startPage !== undefined && profile !== undefined)
      navigation.push({
        reference: startPage,
        file: tree,
        line: profile.line,
        groups: [instanceName],
        target: topicOf(startPage) ?? null,
      });
    for (const element of elements) {
      if (element.name !== 'toc-element') continue;
      for (const accepted of (element.attributes['accepts-web-file-names'] ?? '').split(','))
        if (accepted.trim() !== '')
          servedNames.add(webName(accepted.trim().replace(/\.html?$/i, ''), idMethod));
      const reference = element.attributes.topic ?? element.attributes.id;
      if (reference === undefined) continue;
      const topic = topicOf(reference);
      if (topic !== undefined) built.add(topic);
      navigation.push({
        reference,
        file: tree,
        line: element.line,
        groups: [
          instanceName,
          ...element.ancestors
            .filter((ancestor) => ancestor.name === 'toc-element')
            .map((ancestor) => ancestor.attributes['toc-title'] ?? ancestor.attributes.topic ?? ''),
        ],
        target: topic ?? null,
      });
    }
  }
  trees.push(...libraryTrees);
  if (trees.length === 0) unsupported.push(`${configFile}: no instance tree is read (nothing is built)`);

  // A library topic (`is-library: true` in its front matter, `is-library="true"` on an XML topic)
  // holds snippets for others and is never built, whatever tree lists it.
  const libraries = new Set<string>();
  for (const topic of built) {
    const isLibrary = /\.topic$/i.test(topic)
      ? /<topic\b[^>]{0,2000}\bis-library\s*=\s*"true"/.test((await files.read(topic)) ?? '')
      : (await source.pageFacts(topic))?.frontMatter?.['is-library'] === true;
    if (isLibrary) libraries.add(topic);
  }
  for (const library of libraries) built.delete(library);
  const pages = new Map<string, string[]>();
  for (const topic of built) {
    const stem = topic.slice(topic.lastIndexOf('/') + 1).replace(topicPattern, '');
    const name = webName(stem, idMethod);
    servedNames.add(name);
    pages.set(topic, [`/${name}.html`]);
  }

  /** A URL with its `%name%` variables replaced; null when one is not in `v.list`. */
  const expandVariables = (url: string): string | null => {
    let unknown = false;
    const expanded = url.replace(/%([\w.-]{1,100})%/g, (whole, name: string) => {
      const value = variables.get(name);
      if (value === undefined) unknown = true;
      return value ?? whole;
    });
    return unknown ? null : expanded;
  };
  // Images by file name, anywhere under the images folder (found by name, in any case).
  const imageNames = new Map<string, string>();
  if (imagesFolder !== null)
    for (const path of files.paths) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      if (isWithin(imagesFolder, path) && !imageNames.has(name)) imageNames.set(name, path);
    }
  const imageLookup = createCaseInsensitiveLookup([...imageNames.keys()]);

  const anchorsOf = (file: string, text: string) =>
    /\.topic$/i.test(file) ? readWritersideTopicAnchors(text) : readWritersideAnchors(text, idMethod);
  // The topics pages include from, read once: an include's `element-id` is checked against them.
  const includedTexts = new Map<string, string>();
  for (const page of pages.keys())
    for (const link of (await source.pageFacts(page))?.links ?? []) {
      if (link.kind !== 'import' || link.title !== 'include' || includedTexts.size >= 10_000) continue;
      const expanded = expandVariables(link.url.trim());
      const topic = expanded === null ? undefined : topicOf(splitUrl(expanded).path.replace(/^.*\//, ''));
      if (topic !== undefined && !includedTexts.has(topic))
        includedTexts.set(topic, (await files.read(topic)) ?? '');
    }

  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    const kind = link?.kind ?? 'link';
    const expanded = expandVariables(url.trim());
    if (expanded === null) return { kind: 'unchecked', reason: 'a variable this model does not know' };
    if (isExternalUrl(expanded)) return { kind: 'external' };
    const { path } = splitUrl(expanded);
    if (path === '') return { kind: 'external' };
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (kind === 'import') {
      if (link?.title === 'include') {
        const topic = topicOf(name);
        if (topic === undefined)
          return { kind: 'broken', reason: `no topic ${name} to include from in ${topicFolders.join(', ')}` };
        // The element it takes must be there (`element-id`), when the topic's ids are all known.
        const id = splitUrl(expanded).fragment;
        const text = includedTexts.get(topic);
        if (id !== null && id !== '' && text !== undefined) {
          const ids = anchorsOf(topic, text);
          if (ids.complete && !ids.anchors.has(id))
            return { kind: 'broken', reason: `${name} has no element with the id "${id}" to include` };
        }
        return { kind: 'file', file: topic };
      }
      // `<code-block src>`: from the snippets folder (or the topic's, without one).
      const base = snippetsFolder ?? folderOf(from);
      const file = joinInside(base, path.replace(/^\/+/, ''));
      if (file === null) return { kind: 'unchecked', reason: 'outside the repository' };
      return anyCase(file) !== undefined
        ? { kind: 'file', file: anyCase(file) as string }
        : { kind: 'broken', reason: `no file ${file} for the code block` };
    }
    if (kind === 'image') {
      if (path.startsWith('$PROJECT_DIR$/')) {
        const file = joinInside(siteRoot, path.slice('$PROJECT_DIR$/'.length));
        return file !== null && anyCase(file) !== undefined
          ? { kind: 'file', file: anyCase(file) as string }
          : { kind: 'broken', reason: `no image ${path}` };
      }
      const beside = joinInside(folderOf(from), path);
      if (beside !== null && anyCase(beside) !== undefined)
        return { kind: 'file', file: anyCase(beside) as string };
      const named = imageLookup(name);
      if (named !== undefined) return { kind: 'file', file: imageNames.get(named) as string };
      if (imagesFolder === null) return { kind: 'unchecked', reason: 'no images folder is configured' };
      return { kind: 'broken', reason: `no image ${name} in ${imagesFolder}/ or beside the topic` };
    }
    if (topicPattern.test(name)) {
      const topic = topicOf(name);
      if (topic === undefined)
        return { kind: 'broken', reason: `no topic ${name} in ${topicFolders.join(', ')}` };
      if (libraries.has(topic))
        return { kind: 'unchecked', reason: `${name} is a library topic, which Writerside does not build` };
      if (!built.has(topic))
        return kind === 'html'
          ? {
              kind: 'unchecked',
              reason: `${name} is in no instance's tree (a nullable link renders as text)`,
            }
          : {
              kind: 'broken',
              reason: `${name} is in no instance's tree: Writerside fails the build on a link to a topic the instance does not have`,
            };
      return { kind: 'file', file: topic };
    }
    if (/\.html?$/i.test(name) && servedNames.has(webName(name.replace(/\.html?$/i, ''), idMethod)))
      return { kind: 'served', reason: 'a topic or redirect of the site' };
    return { kind: 'unchecked', reason: 'a link Writerside leaves as written' };
  };

  const firstTree = trees[0];
  return {
    framework: 'writerside',
    siteRoot,
    configFiles: [configFile, ...trees, ...(varsFile !== null && files.has(varsFile) ? [varsFile] : [])],
    pages,
    partials: new Set(),
    // Topics no tree lists: not built, and a new one needs its `<toc-element>`.
    navigationByFileName: true,
    builtOnlyWhenListed: new Set(
      [...topics.values()].filter((topic) => !built.has(topic) && !libraries.has(topic)),
    ),
    navigation,
    needsNavigationEntry: (file) =>
      firstTree !== undefined &&
      topicPattern.test(file) &&
      topicFolders.some((folder) => isWithin(folder, file)),
    ...(firstTree === undefined ? {} : { navigationFileFor: () => firstTree }),
    pageAnchors: anchorsOf,
    resolveLink,
    configurationProblems: problems,
    unsupported,
    conventions: [
      `Links name a topic by its file name alone, wherever it is under ${topicFolders.join(', ')}: \`[text](getting-started.md)\`, \`[text](getting-started.md#anchor)\`; images by their name in ${imagesFolder ?? 'the images folder'}.`,
      firstTree === undefined
        ? 'No instance tree is configured.'
        : `A topic is built only when an instance's tree lists it: add \`<toc-element topic="new-topic.md"/>\` to ${firstTree} where it belongs.`,
    ],
  };
};

/** A topic's web file name: its name in lower case (`_` as `-` with `LOWER_CASE_DASHES_DOT_REMOVE`). */
function webName(stem: string, method: WritersideIdMethod): string {
  const lower = stem.toLowerCase();
  return method === 'LOWER_CASE_DASHES_DOT_REMOVE' ? lower.replace(/_/g, '-') : lower;
}
