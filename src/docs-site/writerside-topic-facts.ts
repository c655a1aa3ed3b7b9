import type { PageFacts, PageLink } from './site-model.ts';
import { readXmlElements } from './xml-elements.ts';

/**
 * A Writerside XML topic (`.topic`, https://www.jetbrains.com/help/writerside/semantic-markup-reference.html)
 * read as XML: `<a href anchor>` (a link, with its anchor as the fragment), `<img src>`,
 * `<include from element-id>` (the element as the fragment) and `<code-block src>`; comments are not read. A link that is `nullable` (text
 * when its topic is not in the instance) or filtered by `instance`, itself or through an ancestor,
 * is not read.
 */
export function readWritersideTopicFacts(text: string): PageFacts {
  const { elements } = readXmlElements(text);
  const links: PageLink[] = [];
  let title: string | null = null;
  for (const element of elements) {
    const { attributes, line } = element;
    if (element.name === 'topic' && title === null) title = attributes.title ?? null;
    if (
      attributes.instance !== undefined ||
      element.ancestors.some((ancestor) => ancestor.attributes.instance !== undefined)
    )
      continue;
    if (element.name === 'a') {
      if (
        attributes.nullable === 'true' ||
        (attributes.href === undefined && attributes.anchor === undefined)
      )
        continue;
      const url = `${attributes.href ?? ''}${attributes.anchor === undefined ? '' : `#${attributes.anchor}`}`;
      links.push({ url, line, kind: 'link' });
    } else if (element.name === 'img' && attributes.src !== undefined)
      links.push({ url: attributes.src, line, kind: 'image' });
    else if (element.name === 'include' && attributes.from !== undefined) {
      const id = attributes['element-id'];
      links.push({
        url: `${attributes.from}${id === undefined ? '' : `#${id}`}`,
        line,
        kind: 'import',
        title: 'include',
      });
    } else if (element.name === 'code-block' && attributes.src !== undefined)
      links.push({ url: attributes.src, line, kind: 'import', title: 'code' });
  }
  return { frontMatter: null, title, links };
}
