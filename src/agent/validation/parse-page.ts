import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { gfm } from 'micromark-extension-gfm';
import { mdxjs } from 'micromark-extension-mdxjs';
import { parseDocument } from 'yaml';

export interface PageProblem {
  file: string;
  line: number;
  column?: number;
  message: string;
}

export interface PageLink {
  url: string;
  line: number;
}

export interface ParsedPage {
  problems: PageProblem[];
  links: PageLink[];
}

interface Node {
  type: string;
  url?: string;
  value?: string;
  attributes?: Array<{ type: string; name?: string; value?: unknown }>;
  children?: Node[];
  position?: { start: { line: number } };
}

/**
 * Parses one Markdown (`.md`) or MDX (`.mdx`) page: syntax errors and front-matter YAML errors with
 * file and line, and the links it contains (Markdown links, definitions, JSX `href` attributes and local MDX imports).
 */
export function parsePage(file: string, text: string): ParsedPage {
  const problems: PageProblem[] = [];
  let body = text;
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (frontMatter !== null) {
    const document = parseDocument(frontMatter[1] ?? '', { prettyErrors: true });
    for (const error of document.errors) {
      problems.push({
        file,
        line: (error.linePos?.[0]?.line ?? 0) + 1,
        message: `Front matter: ${error.message.split('\n')[0]}`,
      });
    }
    // Blank lines keep line numbers of the body the same as in the file.
    body = '\n'.repeat(frontMatter[0].split('\n').length - 1) + text.slice(frontMatter[0].length);
  }
  const isMdx = file.toLowerCase().endsWith('.mdx');
  let tree: Node;
  try {
    tree = fromMarkdown(body, {
      extensions: isMdx ? [mdxjs(), gfm()] : [gfm()],
      mdastExtensions: isMdx ? [mdxFromMarkdown(), gfmFromMarkdown()] : [gfmFromMarkdown()],
    }) as Node;
  } catch (error: unknown) {
    const located = error as { line?: unknown; column?: unknown; reason?: unknown; message?: unknown };
    const reason = String(located.reason ?? located.message ?? error);
    // Some errors (an unclosed tag) carry their place only in the text: "... (5:1-5:17)".
    const place = /\((\d+):(\d+)(?:-\d+:\d+)?\)\s*$/.exec(reason);
    const line = typeof located.line === 'number' ? located.line : Number(place?.[1] ?? 1);
    const column =
      typeof located.column === 'number' ? located.column : place === null ? undefined : Number(place[2]);
    problems.push({
      file,
      line,
      ...(column === undefined ? {} : { column }),
      message: `${isMdx ? 'MDX' : 'Markdown'} syntax error: ${reason}`,
    });
    return { problems, links: [] };
  }
  const links: PageLink[] = [];
  const visit = (node: Node): void => {
    const line = node.position?.start.line ?? 1;
    if (node.type === 'mdxjsEsm' && typeof node.value === 'string') {
      // Local imports (Mintlify snippets, shared components) must point to files that exist.
      for (const match of node.value.matchAll(/\bfrom\s*['"]([./][^'"]*)['"]/g)) {
        if (match[1] !== undefined) links.push({ url: match[1], line });
      }
    }
    if ((node.type === 'link' || node.type === 'definition') && typeof node.url === 'string')
      links.push({ url: node.url, line });
    if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') {
      for (const attribute of node.attributes ?? []) {
        if (
          attribute.type === 'mdxJsxAttribute' &&
          attribute.name === 'href' &&
          typeof attribute.value === 'string'
        ) {
          links.push({ url: attribute.value, line });
        }
      }
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(tree);
  return { problems, links };
}
