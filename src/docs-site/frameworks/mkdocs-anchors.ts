import { readMarkdownExtensions } from './mkdocs-config.ts';
import type { MkDocsFlavor, MkDocsSite } from './mkdocs-sites.ts';
import { isRecord } from './yaml-problems.ts';

/**
 * Whether the build warns of a link to an anchor its target page lacks: Zensical does unless its
 * `validation` turns `invalid_link_anchors` off, read in zensical/config.py's order (`links` merged
 * over the rest, MkDocs' `anchors: ignore`, then Zensical's own keys); MkDocs 1.6 only with
 * `validation: anchors: warn` (its default is `info`,
 * https://www.mkdocs.org/user-guide/configuration/#validation). Not when `toc` makes heading ids
 * with a `slugify` other than pymdownx.slugs' or another `separator` than `-`.
 */
export function checksAnchors(site: MkDocsSite, flavor: MkDocsFlavor): boolean {
  const values = site.config.values;
  const toc = readMarkdownExtensions(values).get('toc') ?? {};
  if (toc.separator !== undefined && toc.separator !== '-') return false;
  if (toc.slugify !== undefined && !slugifiesLikePymdownx(site, toc.slugify)) return false;
  const validation = values.validation;
  const merged = isRecord(validation)
    ? { ...validation, ...(isRecord(validation.links) ? validation.links : {}) }
    : {};
  if (flavor === 'mkdocs') return merged.anchors === 'warn';
  if (validation !== undefined && !isRecord(validation)) return pythonTruth(validation);
  let checked = true;
  if ('anchors' in merged) checked = merged.anchors !== 'ignore';
  if ('invalid_link_anchors' in merged) checked = pythonTruth(merged.invalid_link_anchors);
  return checked;
}

/** A setting's truth as Python's `bool` sees it, YAML 1.1's `off`/`no` included (PyYAML reads them as False). */
function pythonTruth(value: unknown): boolean {
  if (typeof value === 'string') return value !== '' && !/^(off|no|n|false)$/i.test(value);
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

/**
 * Whether `toc`'s `slugify` is pymdownx.slugs': in TOML an `object` naming it, or none (Zensical's
 * default); in YAML the Python tag is gone from the value, so the `toc` item's own text says.
 */
function slugifiesLikePymdownx(site: MkDocsSite, slugify: unknown): boolean {
  if (isRecord(slugify) && typeof slugify.object === 'string')
    return slugify.object.startsWith('pymdownx.slugs.');
  if (site.config.file.endsWith('.toml')) return isRecord(slugify);
  for (const text of site.config.texts.values()) {
    const item = /^([ \t]*)(?:-[ \t]+)?toc[ \t]*:[ \t]*$/m.exec(text);
    if (item === null) continue;
    const indentation = (item[1] ?? '').length;
    const block: string[] = [];
    for (const line of text.slice(item.index + item[0].length + 1).split('\n')) {
      if (line.trim() !== '' && (/^[ \t]*/.exec(line)?.[0].length ?? 0) <= indentation) break;
      block.push(line);
    }
    const written = /slugify[ \t]*:([^\n]*(?:\n[^\n]*)?)/.exec(block.join('\n'))?.[1] ?? '';
    if (/pymdownx\.slugs\./.test(written)) return true;
  }
  return false;
}
