import { folderOf, joinInside } from '../link-urls.ts';
import type { SiteProblem, SiteSource } from '../site-model.ts';

/** `{{#include file}}`-style directives whose file is missing, as problems at their line. */
export interface MissingIncludes {
  problems: SiteProblem[];
  /** Includes of a file this checkout may not hold (see checkout-coverage.ts), left unchecked. */
  uncheckedFolders: number;
}

const directivePattern = /\{\{\s*#(include|rustdoc_include|playground|playpen)\s+([^\s}]+)/g;

/**
 * The links preprocessor's directives (https://rust-lang.github.io/mdBook/format/mdbook.html):
 * `{{#include path}}`, `{{#rustdoc_include path:anchor}}`, `{{#playground path}}`, the path
 * relative to the chapter and ending at the first colon. mdBook leaves a directive whose file is
 * missing in the page as written, with an error in its log. A file this checkout may not hold
 * at all (`createCheckoutCoverage`) is left unchecked.
 */
export async function findMissingIncludes(
  source: SiteSource,
  chapters: readonly string[],
  isExpected: (file: string) => boolean,
): Promise<MissingIncludes> {
  const problems: SiteProblem[] = [];
  let uncheckedFolders = 0;
  for (const chapter of chapters) {
    const text = await source.files.read(chapter);
    if (text === null || !text.includes('{{')) continue;
    for (const [index, line] of text.split('\n').entries()) {
      if (!line.includes('{{') || line.length > 4000) continue;
      for (const match of line.matchAll(directivePattern)) {
        // `\{{#include ...}}` is the directive escaped, shown as text.
        if (match.index > 0 && line[match.index - 1] === '\\') continue;
        const written = match[2] ?? '';
        const path = written.split(':')[0] ?? '';
        const target = joinInside(folderOf(chapter), path);
        if (path === '' || target === null || source.files.has(target)) continue;
        if (!isExpected(target)) {
          uncheckedFolders += 1;
          continue;
        }
        problems.push({
          file: chapter,
          line: index + 1,
          message: `Missing file in {{#${match[1]} ${written}}}: no file ${target}`,
          key: `include\0${written}`,
        });
      }
    }
  }
  return { problems, uncheckedFolders };
}
