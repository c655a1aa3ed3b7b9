import { RE2JS } from 're2js';
import { hasUnknownSpread, isPlainRecord, UnknownValue } from '../javascript-config.ts';
import { isWithin, relativeTo } from '../link-urls.ts';
import type { RepositoryFiles } from '../site-model.ts';

/**
 * Nuxt's own pages (`pages/` or, in Nuxt 4, `app/pages/`): each `.vue` file's route, `index`
 * serving its folder. A dynamic segment (`[slug].vue`) serves any route below its folder, save the
 * catch-all at the top, which renders the content pages.
 */
export function readVuePages(files: RepositoryFiles, siteRoot: string) {
  const served = new Set<string>();
  const dynamicFolders: string[] = [];
  for (const folder of ['pages', 'app/pages']) {
    const pagesDir = siteRoot === '' ? folder : `${siteRoot}/${folder}`;
    for (const path of files.paths) {
      if (!isWithin(pagesDir, path) || !/\.(vue|tsx?|jsx?)$/.test(path)) continue;
      const relative = relativeTo(pagesDir, path).replace(/\.[^./]+$/, '');
      const bracket = relative.indexOf('[');
      if (bracket >= 0) {
        const folder = relative.slice(0, bracket).replace(/\/?[^/]*$/, '');
        // `[...slug].vue` and `[[lang]]/[...slug].vue` at the top render the content pages.
        if (folder === '' && /^(\[\[?[^\]/]+\]?\]\/)?\[\.\.\.[^\]/]+\]$/.test(relative)) continue;
        dynamicFolders.push(`/${folder}`);
        continue;
      }
      served.add(`/${relative}`.replace(/\/index$/, '').replace(/^$/, '/') || '/');
    }
  }
  return {
    serves: (route: string) => served.has(route),
    dynamic: (route: string) =>
      dynamicFolders.some((folder) => folder === '/' || route.startsWith(`${folder}/`)),
  };
}

/**
 * The routes `routeRules` redirect (Nitro: `{ '/old': { redirect: '/new' } }`, a `/**` key for
 * everything below it), compiled for RE2; null when the rules are computed by code.
 */
export function readRouteRules(rules: unknown): ((route: string) => boolean) | null {
  if (rules === undefined) return () => false;
  if (!isPlainRecord(rules) || hasUnknownSpread(rules)) return null;
  const expressions: string[] = [];
  for (const [key, rule] of Object.entries(rules).slice(0, 2_000)) {
    if (!isPlainRecord(rule) || rule.redirect === undefined || key.length > 1_024) continue;
    if (rule.redirect instanceof UnknownValue) return null;
    const fixed = key.replace(/\/\*\*$/, '');
    const quoted = fixed
      .split('*')
      .map((part) => RE2JS.quote(part))
      .join('[^/]*');
    expressions.push(key.endsWith('/**') ? `${quoted}(?:/.*)?` : quoted);
  }
  if (expressions.length === 0) return () => false;
  try {
    const regex = RE2JS.compile(`^(?:${expressions.join('|')})/?$`);
    return (route) => regex.matches(route);
  } catch {
    return null;
  }
}
