import kebabCase from 'lodash-es/kebabCase.js';

/**
 * Fern's URL slugs, as the released CLI (fern-api 5.131.1, which bundles @fern-api/fdr-sdk) makes
 * them: `slugjoin` (fdr-sdk navigation/versions/v1/slugjoin.ts), titles through lodash's `kebabCase`
 * (DocsDefinitionResolver.ts), folder entries through `nameToSlug`
 * (configuration-loader/src/docs-yml/navigationUtils.ts) and the `SlugGenerator`
 * (fdr-sdk navigation/versions/v1/converters/SlugGenerator.ts) that places every node under its
 * base path, product and version. Slugs have no leading or trailing slash; the root is ''.
 */

/** A title as a URL segment: lodash's `kebabCase`, without lower-casing first (`SDKs` is `sd-ks`). */
export function titleSlug(title: string): string {
  return kebabCase(title);
}

/**
 * An API package's default segment, as the resolver makes the slugs of API definitions' names
 * (es-toolkit's `kebabCase`: words split at case changes and digits, lower-cased, joined by `-`).
 */
export function packageSlug(name: string): string {
  const words =
    name.match(
      /\p{Lu}?\p{Ll}+|[0-9]+|\p{Lu}+(?!\p{Ll})|\p{Emoji_Presentation}|\p{Extended_Pictographic}|\p{L}+/gu,
    ) ?? [];
  return words.map((word) => word.toLowerCase()).join('-');
}

/** A `folder:` entry's file or folder name as a segment: lower case, spaces as `-`, all but `[a-z0-9-]` dropped. */
export function nameToSlug(name: string): string {
  return name
    .replace(/\.mdx?$/i, '')
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9-]/g, '');
}

/** A `folder:` entry's title from its name: `-` and `_` as spaces, each word capitalised. */
export function nameToTitle(name: string): string {
  return name
    .replace(/\.mdx?$/i, '')
    .replace(/[-_]/g, ' ')
    .replace(/\b\w/g, (letter) => letter.toUpperCase());
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * `slugjoin`: the parts trimmed and percent-decoded, joined as url-join 4 joins them (slashes at
 * the joins made one), then one leading and one trailing slash dropped.
 */
export function slugjoin(...parts: ReadonlyArray<string | null | undefined>): string {
  const kept = parts
    .filter((part): part is string => typeof part === 'string')
    .map((part) => decode(part.trim()))
    .filter((part) => part !== '');
  const joined = kept
    .map((part, index) => {
      let result = part;
      if (index > 0) result = result.replace(/^\/+/, '');
      if (index < kept.length - 1) result = result.replace(/\/+$/, '');
      return result;
    })
    .filter((part, index) => part !== '' || index === 0)
    .join('/');
  return joined.replace(/^\//, '').replace(/\/$/, '');
}

function isSegmentPrefix(slug: string, prefix: string): boolean {
  return slug === prefix || slug.startsWith(`${prefix}/`);
}

/** Where a node's slug comes from: its own segment, a front matter `slug` (the whole path), or nothing. */
export interface SlugChoice {
  urlSlug: string;
  fullSlug?: string | null;
  skipUrlSlug?: boolean;
}

/** fdr-sdk's `SlugGenerator`: the current slug, and the base path, product and version it sits under. */
export class SlugGenerator {
  readonly #base: string;
  readonly #product: string | undefined;
  readonly #version: string | undefined;
  readonly slug: string;

  private constructor(base: string, product: string | undefined, version: string | undefined, slug: string) {
    this.#base = base;
    this.#product = product;
    this.#version = version;
    this.slug = slug;
  }

  static init(base: string): SlugGenerator {
    const slug = slugjoin(base);
    return new SlugGenerator(slug, undefined, undefined, slug);
  }

  setProductSlug(product: string): SlugGenerator {
    const slug = slugjoin(this.#base, product);
    return new SlugGenerator(this.#base, slug, this.#version, slug);
  }

  setVersionSlug(version: string): SlugGenerator {
    const slug = slugjoin(this.#product ?? this.#base, version);
    return new SlugGenerator(this.#base, this.#product, slug, slug);
  }

  append(segment: string): SlugGenerator {
    return this.#with(slugjoin(this.slug, segment));
  }

  apply(choice: SlugChoice): SlugGenerator {
    if (choice.skipUrlSlug === true) return this;
    if (choice.fullSlug !== undefined && choice.fullSlug !== null) return this.set(choice.fullSlug);
    // An item right at the version's (product's, base's) root whose slug already starts with that
    // scope, relative to the base, is taken as written from the base.
    const scope = this.#version ?? this.#product ?? this.#base;
    const relativeScope = this.#relativeToBase(scope);
    if (
      this.slug === scope &&
      relativeScope.length > 0 &&
      slugjoin(choice.urlSlug).startsWith(`${relativeScope}/`)
    )
      return this.set(choice.urlSlug);
    return this.append(choice.urlSlug);
  }

  /** A slug given whole (front matter `slug`), put under the base path, product and version. */
  set(value: string): SlugGenerator {
    const slug = slugjoin(value);
    const base = this.#base;
    const product = this.#product;
    const version = this.#version;
    const versionFromBase = version === undefined ? '' : this.#relativeToBase(version);
    const productFromBase = product === undefined ? '' : this.#relativeToBase(product);
    let result: string;
    if (product !== undefined && version !== undefined) {
      if (slug.startsWith(product)) result = slugjoin(version, slug.slice(product.length));
      else if (base !== '' && slug.startsWith(base)) result = slugjoin(base, slug.slice(base.length));
      else if (isSegmentPrefix(slug, versionFromBase)) result = slugjoin(base, slug);
      else if (isSegmentPrefix(slug, productFromBase))
        result = slugjoin(version, slug.slice(productFromBase.length));
      else result = slugjoin(version, slug);
    } else if (version !== undefined) {
      if (slug.startsWith(version)) result = slug;
      else if (base !== '' && slug.startsWith(base)) result = slugjoin(version, slug.slice(base.length));
      else if (isSegmentPrefix(slug, versionFromBase)) result = slugjoin(base, slug);
      else result = slugjoin(version, slug);
    } else if (product !== undefined) {
      if (slug.startsWith(product)) result = slug;
      else if (base !== '' && slug.startsWith(base)) result = slugjoin(slug.slice(base.length));
      else if (isSegmentPrefix(slug, productFromBase)) result = slugjoin(base, slug);
      else result = slugjoin(product, slug);
    } else if (base !== '' && slug.startsWith(base)) result = slug;
    else result = slugjoin(base, slug);
    return this.#with(result);
  }

  #with(slug: string): SlugGenerator {
    return new SlugGenerator(this.#base, this.#product, this.#version, slug);
  }

  #relativeToBase(slug: string): string {
    if (this.#base === '') return slug;
    return slug === this.#base
      ? ''
      : slug.startsWith(`${this.#base}/`)
        ? slug.slice(this.#base.length + 1)
        : slug;
  }
}

/**
 * The day a changelog entry's file name gives (`2024-01-15-release.mdx`), at UTC midnight; null when
 * the name holds no date (ChangelogNodeConverter's date parser). ISO dates are UTC; other forms
 * (`07-08-24`) are read as JavaScript reads them in local time, which the build's machine decides:
 * read here as at UTC.
 */
export function changelogDate(fileName: string): Date | null {
  const stem = fileName.split('.')[0] ?? '';
  const written = /^(\d{1,4})-(\d{1,2})-(\d{1,4})/.exec(stem)?.[0];
  if (written === undefined) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(written)) {
    const date = new Date(`${written}T00:00:00Z`);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  const local = new Date(written);
  return Number.isNaN(local.getTime())
    ? null
    : new Date(Date.UTC(local.getFullYear(), local.getMonth(), local.getDate()));
}

/** A changelog entry's segments: `YYYY/M/D`, without zero padding (`dayjs.utc(date).format("YYYY/M/D")`). */
export function changelogSlug(date: Date): string {
  return `${date.getUTCFullYear()}/${date.getUTCMonth() + 1}/${date.getUTCDate()}`;
}
