import { regex as githubSluggerRemoved } from 'github-slugger/regex.js';

/**
 * Redocly's slugs, as @redocly/realm 0.135.2 makes them (dist/utils/slugger.js): github-slugger's
 * character class but for `.` and `/`, which Realm keeps in paths; every space a `-` (runs are not
 * folded); nothing left is `_`. Headings drop dots and slashes too (`replaceDots`, `replaceSlashes`).
 */
export function redoclySlug(
  text: string,
  options: { maintainCase?: boolean; heading?: boolean } = {},
): string {
  let slug = (options.maintainCase === true ? text : text.toLowerCase())
    .replace(githubSluggerRemoved, (character) => (character === '.' || character === '/' ? character : ''))
    .replace(/ /g, '-');
  if (options.heading === true) slug = slug.replace(/[./]/g, '');
  return slug === '' ? '_' : slug;
}

/** Realm's `UniqueKeyResolver` (dist/utils/conflict-resolvers.js): a repeated key becomes `key-1`, `key-2`, ... */
export class UniqueKeys {
  #counts = new Map<string, number>();

  resolve(key: string): string {
    let unique = key;
    while (this.#counts.has(unique)) {
      const count = (this.#counts.get(unique) ?? 0) + 1;
      this.#counts.set(unique, count);
      unique = `${key}-${count}`;
    }
    this.#counts.set(unique, 0);
    return unique;
  }
}

/** `combineUrls` (@redocly/theme core/utils/urls.js): empty parts skipped, one `/` between the others. */
function combineUrls(base: string, ...parts: string[]): string {
  let result = base;
  for (const part of parts)
    if (part !== '') result = `${result.replace(/[/\\]+$/, '')}/${part.replace(/^[/\\]+/, '')}`;
  return result;
}

const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') || '/' : path);

/** `parseBaseName` (dist/server/plugins/utils.js): the last extension dropped (`.page.tsx` whole). */
export function parseBaseName(path: string): { baseName: string; isIndexFile: boolean } {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const extension = name.endsWith('.page.tsx') ? '.page.tsx' : (/(?<=.)\.[^.]*$/.exec(name)?.[0] ?? '');
  const baseName = name.slice(0, name.length - extension.length);
  return { baseName, isIndexFile: baseName === 'index' };
}

/** File types the slug table skips (`IGNORED_EXTS` of the content-slugs loader; case as written). */
const ignoredExtensions = new Set(
  '.jpg .jpeg .png .gif .webp .svg .ico .avif .mp3 .wav .ogg .m4a .mp4 .avi .mov .webm .pdf .doc .docx .zip .rar .gz .ttf .woff .woff2'.split(
    ' ',
  ),
);

/**
 * Realm's slug table (dist/server/plugins/config-parser/loaders/content-slugs-loader.js): every file
 * the project holds (pages or not, translations' copies included), in descending ICU order of its
 * path, takes its folder's slug and its slugged base name, numbered when taken (`x-1`); an index
 * file takes its folder's; a file beside a folder of its name takes the plain slug when free.
 * `defaultVersionOf` names the default version of a file's version folder (its segment is dropped).
 * Each file's slug, keyed by its path with `@l10n/` dropped (`fr/guide/x.md`).
 */
export function buildSlugTable(
  paths: readonly string[],
  defaultVersionOf: (path: string) => string | null,
): Map<string, string> {
  const files = new Map<string, string>();
  const folders = new Map<string, string>([
    ['.', '/'],
    ['/', '/'],
  ]);
  const taken = new Set<string>();
  const slugger = new UniqueKeys();
  const collator = new Intl.Collator();
  const ordered = paths
    .filter((path) => !ignoredExtensions.has(/\.[^./]*$/.exec(path)?.[0] ?? ''))
    .sort((left, right) => collator.compare(right, left));
  const folderSlug = (folder: string, defaultVersion: string | null): string => {
    const known = folders.get(folder);
    if (known !== undefined) return known;
    let parent = '/';
    let walked = '';
    for (const segment of folder.split('/')) {
      walked = walked === '' ? segment : `${walked}/${segment}`;
      let slug = folders.get(walked);
      if (slug === undefined) {
        const name = segment.startsWith('@')
          ? segment.slice(1) === defaultVersion
            ? ''
            : segment.slice(1)
          : segment;
        slug = slugger.resolve(redoclySlug(combineUrls('/', parent, name)));
        if (!slug.endsWith('/')) slug += '/';
        folders.set(walked, slug);
      }
      parent = slug;
    }
    return parent;
  };
  for (const path of ordered) {
    const key = path.replace(/^(@i18n|@l10n)\//, '');
    if (files.has(key)) continue;
    const slash = key.lastIndexOf('/');
    const folder = slash < 0 ? '.' : key.slice(0, slash);
    const folderPrefix = folder === '.' ? '' : folderSlug(folder, defaultVersionOf(path));
    const { baseName, isIndexFile } = parseBaseName(key);
    let slug: string | undefined;
    const besideFolder = folders.has(folder === '.' ? baseName : `${folder}/${baseName}`);
    if (!isIndexFile && besideFolder) {
      const plain = redoclySlug(combineUrls(folderPrefix, baseName));
      if (!taken.has(plain)) slug = plain;
    }
    slug ??=
      (isIndexFile ? folders.get(folder) : undefined) ??
      slugger.resolve(redoclySlug(combineUrls(folderPrefix, baseName)));
    slug = withoutTrailingSlash(slug);
    files.set(key, slug);
    taken.add(slug);
  }
  return files;
}
