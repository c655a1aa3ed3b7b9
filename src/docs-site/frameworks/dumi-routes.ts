import pluralize from 'pluralize';

/**
 * dumi 2's routes of files, ported from umijs/dumi v2.4.49 src/features/routes.ts and umi 4's
 * route convention (packages/core/src/route/routesConvention.ts `createRoutePath`).
 */

/** A locale (`locales` in `.dumirc.ts`): base mode (`/en-US` before the path) or suffix mode (`-cn` after it). */
export interface DumiLocale {
  id: string;
  base?: string;
  suffix?: string;
}

/** umi's `createRoutePath`: every `.` a `/`, `$x` a dynamic segment, a last `index` or `README` dropped. */
export function createRoutePath(routeId: string): string {
  let path = routeId
    .replace(/^\$$/, '*')
    .replace(/(\/|\.)\$$/, '/*')
    .replace(/\$/g, ':')
    .replace(/\./g, '/');
  path = /(^|\/)index\/index$/.test(path) ? path.replace(/\/index$/, '') : path;
  path = /\b\/?(?<!:)index$/.test(path) ? path.replace(/\/?index$/, '') : path;
  path = /\b\/?README$/.test(path) ? path.replace(/\/?README$/, '') : path;
  return path;
}

/**
 * umi's path of a route id among its folder's ids (routesConvention.ts, defineRoutes.ts): an id
 * with another as its folder (`guide/intro` beside `guide`) is that one's child, its own path made
 * from the rest and its `absPath` joined to its parent's (`//foo` under an `index` parent, which
 * the router reads as `/foo`).
 */
export function conventionalPath(
  id: string,
  ids: ReadonlyMap<string, unknown>,
): { abs: string; own: string } {
  let parent: string | undefined;
  for (
    let slash = id.lastIndexOf('/');
    slash > 0 && parent === undefined;
    slash = id.lastIndexOf('/', slash - 1)
  )
    if (ids.has(id.slice(0, slash))) parent = id.slice(0, slash);
  if (parent === undefined) {
    const own = createRoutePath(id);
    return { abs: `/${own}`, own };
  }
  const own = createRoutePath(id.slice(parent.length + 1));
  return { abs: [conventionalPath(parent, ids).abs, own].join('/'), own };
}

/** dumi's `kebabCaseRoutePath` (not lower case alone: `HelloWorld` is `hello-world`, `Button-Group` `button--group`). */
export function kebabCaseRoutePath(routePath: string): string {
  // As dumi writes it: `['', '/'].includes(s1) || !i`, so a first group that did not match (the
  // character before was taken by the last match: `ByColor`) still gives `-`.
  const replacer = (_match: string, before: string | undefined, upper: string, index: number) => {
    const symbol = before === '' || before === '/' || index === 0 ? '' : '-';
    return `${before ?? ''}${symbol}${upper.toLowerCase()}`;
  };
  return routePath.replace(/(.)?([A-Z][^A-Z/])/g, replacer).replace(/(.)?([A-Z]+)/g, replacer);
}

/** `pluralize` as dumi uses it for typed folders (`doc` is `docs`, `component` `components`). */
export function plural(type: string): string {
  return pluralize.plural(type);
}

/**
 * The URL (`absPath`) of a route whose path (relative, no leading `/`) and file are known, after
 * dumi's localisation and kebab-casing (`localizeUmiRoute`): a file named `x.<locale>.md` of a
 * configured locale goes under the locale's base or takes its suffix.
 */
export function localizedAbsPath(
  path: string,
  fileName: string,
  locales: readonly DumiLocale[],
  kebab: boolean,
): string {
  const format = kebab ? kebabCaseRoutePath : (value: string) => value;
  const locale = locales.find(
    (candidate) =>
      path.endsWith(`/${candidate.id}`) && fileName.replace(/\.md$/, '').endsWith(`.${candidate.id}`),
  );
  if (locale === undefined) return format(`/${path}`);
  const base =
    locale.base === undefined || locale.base === '/' ? '' : locale.base.replace(/^(\/)(.+)$/, '$2$1');
  const localized = `${base}${format(
    path.slice(0, path.length - locale.id.length - 1).replace(/((^|\/)(index|README))$/, ''),
  )}${locale.suffix ?? ''}`;
  return localized !== '/' ? `/${localized}` : localized;
}
