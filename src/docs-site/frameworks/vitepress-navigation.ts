import { isPlainRecord, UnknownValue } from '../javascript-config.ts';
import type { ModuleLines } from '../javascript-modules.ts';
import { isExternalUrl } from '../link-urls.ts';
import { type LinkTarget, type NavigationEntry, navigationTarget } from '../site-model.ts';

export interface VitePressNavigation {
  entries: NavigationEntry[];
  /** Route prefixes an explicit sidebar covers (`/guide/`; `/` for a sidebar given as an array). */
  sidebarPrefixes: string[];
  unsupported: string[];
}

const maximumEntries = 20_000;
const maximumDepth = 32;

/**
 * Reads a VitePress theme's `sidebar` and `nav` (https://vitepress.dev/reference/default-theme-sidebar,
 * /reference/default-theme-nav): a sidebar is an array of items or an object keyed by route prefix
 * whose values are arrays or `{ base, items }`; an item is `{ text, link, items, base }`, its link
 * joined to the nearest `base`. A link to no page does not fail the build but leads to a 404.
 */
export function readVitePressNavigation(
  themeConfig: unknown,
  groups: string[],
  lines: ModuleLines,
  resolve: (route: string) => LinkTarget,
  navigation: VitePressNavigation,
  options: {
    stringItems?: boolean;
    /**
     * Vocs: an item with `external: true` is a plain link out of the site (no entry), and a link
     * not starting with `/` is resolved by the router against the current page (unchecked).
     */
    vocs?: boolean;
  } = {},
): void {
  if (!isPlainRecord(themeConfig)) return;
  const unknown = (reason: string, path: string[]) => {
    const place = lines.locate('sidebar');
    navigation.entries.push({
      reference: '(computed)',
      ...place,
      groups: path,
      target: { unchecked: reason },
    });
    if (navigation.unsupported.length < 5) {
      navigation.unsupported.push(
        `${place.file}: part of the navigation is computed by code (${reason}); its entries are unchecked`,
      );
    }
  };
  const visit = (
    item: unknown,
    path: string[],
    base: string,
    depth: number,
    parent?: readonly unknown[],
    index?: number,
  ): void => {
    if (navigation.entries.length >= maximumEntries || depth > maximumDepth) return;
    if (Array.isArray(item)) {
      for (const [position, child] of item.entries()) visit(child, path, base, depth + 1, item, position);
      return;
    }
    // Rspress also takes a route alone as an item (`'/guide/start'`).
    if (typeof item === 'string' && options.stringItems === true) {
      if (!isExternalUrl(item))
        navigation.entries.push({
          reference: item,
          ...lines.locate(item, undefined, parent, index),
          groups: path,
          target: navigationTarget(resolve(item)),
        });
      return;
    }
    if (!isPlainRecord(item)) {
      unknown(item instanceof UnknownValue ? item.reason : 'an entry that is not an object', path);
      return;
    }
    const itemBase = typeof item.base === 'string' ? item.base : base;
    const text = typeof item.text === 'string' ? item.text : '';
    if (
      options.vocs === true &&
      typeof item.link === 'string' &&
      !isExternalUrl(item.link) &&
      item.external !== true &&
      !item.link.startsWith('/')
    ) {
      navigation.entries.push({
        reference: item.link,
        ...lines.locate(item.link, 'link', item),
        groups: path,
        target: { unchecked: 'a relative link, which the router resolves against the current page' },
      });
    } else if (
      typeof item.link === 'string' &&
      !isExternalUrl(item.link) &&
      !(options.vocs === true && item.external === true)
    ) {
      const place = lines.locate(item.link, 'link', item);
      const route = item.link.startsWith('/') ? item.link : `${itemBase}${item.link}`;
      navigation.entries.push({
        reference: item.link,
        ...place,
        groups: path,
        target: navigationTarget(resolve(route)),
      });
    } else if (item.link !== undefined && typeof item.link !== 'string') unknown('a computed link', path);
    if (item.items !== undefined)
      visit(item.items, text === '' ? path : [...path, text], itemBase, depth + 1);
  };
  const sidebar = themeConfig.sidebar;
  if (Array.isArray(sidebar)) {
    navigation.sidebarPrefixes.push('/');
    visit(sidebar, [...groups, 'sidebar'], '/', 0);
  } else if (isPlainRecord(sidebar)) {
    for (const [prefix, value] of Object.entries(sidebar)) {
      navigation.sidebarPrefixes.push(prefix);
      const base = isPlainRecord(value) && typeof value.base === 'string' ? value.base : '/';
      visit(isPlainRecord(value) ? value.items : value, [...groups, 'sidebar', prefix], base, 0);
    }
  } else if (sidebar !== undefined && sidebar !== false) {
    unknown(sidebar instanceof UnknownValue ? sidebar.reason : 'sidebar', [...groups, 'sidebar']);
  }
  if (Array.isArray(themeConfig.nav)) visit(themeConfig.nav, [...groups, 'nav'], '/', 0);
  else if (themeConfig.nav instanceof UnknownValue) unknown(themeConfig.nav.reason, [...groups, 'nav']);
}
