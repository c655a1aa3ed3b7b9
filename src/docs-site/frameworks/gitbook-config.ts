import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { joinInside } from '../link-urls.ts';
import type { SiteProblem } from '../site-model.ts';
import { yamlProblems } from './yaml-problems.ts';

/** A GitBook space's `.gitbook.yaml`, as Git Sync reads it. */
export interface GitBookConfig {
  /** The space's root folder, relative to the repository root ('' for the top). */
  root: string;
  /** The first page and the table of contents, relative to the repository root. */
  readme: string;
  summary: string;
  /** `redirects`: an old path (relative to the root, no extension) → the page file it now is. */
  redirects: Array<{ from: string; to: string; line: number }>;
  problems: SiteProblem[];
}

/**
 * Reads `.gitbook.yaml` (https://gitbook.com/docs/getting-started/git-sync/content-configuration):
 * `root` (default `./`, relative to the folder of the file), `structure.readme` and
 * `structure.summary` (defaults `README.md` and `SUMMARY.md`, relative to the root), and `redirects`
 * (old path → page file, relative to the root). `text` is null when the space has no such file.
 */
export function readGitBookConfig(text: string | null, file: string, folder: string): GitBookConfig {
  const lines = new LineCounter();
  const document = parseDocument(text ?? '', {
    lineCounter: lines,
    logLevel: 'silent',
    strict: false,
    uniqueKeys: false,
  });
  const problems = yamlProblems(document, file);
  const stringAt = (...path: string[]) => {
    const value: unknown = document.getIn(path);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  };
  const rootValue = stringAt('root');
  let root = folder;
  if (rootValue !== null) {
    const joined = joinInside(folder, rootValue);
    if (joined === null) {
      problems.push({
        file,
        line: 1,
        message: `${file}: root "${rootValue}" leaves the repository`,
        key: 'configuration\0root',
      });
    } else root = joined;
  }
  const inRoot = (value: string | null, fallback: string) =>
    (value === null ? null : joinInside(root, value)) ?? joinInside(root, fallback) ?? fallback;
  const redirects: GitBookConfig['redirects'] = [];
  const map: unknown = document.get('redirects', true);
  if (isMap(map)) {
    for (const pair of map.items) {
      if (!isScalar(pair.key) || !isScalar(pair.value)) continue;
      const from = String(pair.key.value).trim().replace(/^\/+/, '');
      const to = pair.value.value;
      if (typeof to !== 'string' || from === '') continue;
      redirects.push({ from, to: to.trim(), line: lines.linePos(pair.value.range?.[0] ?? 0).line });
    }
  }
  return {
    root,
    readme: inRoot(stringAt('structure', 'readme'), 'README.md'),
    summary: inRoot(stringAt('structure', 'summary'), 'SUMMARY.md'),
    redirects,
    problems,
  };
}

/** A site's `docs.yaml`: the folders of the spaces it syncs. */
export interface GitBookSiteConfig {
  file: string;
  spaces: string[];
  problems: SiteProblem[];
}

export const siteConfigNames = ['docs.yaml', 'gitbook-docs.yaml'];

/**
 * Reads the site configuration of a repository that syncs several spaces
 * (https://gitbook.com/docs/docs-as-code/git-sync/monorepos): `site.structure`, sections and their
 * `children`, down to each space's `content.directory` (`./docs` and `docs` relative to the
 * project directory, `/docs` from the repository root; `null` for a space not synced here). Null when
 * the folder has no such file.
 */
export async function readGitBookSite(
  files: { read(path: string): Promise<string | null> },
  folder: string,
): Promise<GitBookSiteConfig | null> {
  for (const name of siteConfigNames) {
    const file = folder === '' ? name : `${folder}/${name}`;
    const text = await files.read(file);
    if (text === null) continue;
    const document = parseDocument(text, { logLevel: 'silent', strict: false, uniqueKeys: false });
    const spaces: string[] = [];
    const visit = (items: unknown, depth: number) => {
      if (!Array.isArray(items) || depth > 8) return;
      for (const item of items) {
        if (typeof item !== 'object' || item === null) continue;
        const { children, content } = item as { children?: unknown; content?: { directory?: unknown } };
        const directory = content?.directory;
        if (typeof directory === 'string' && directory.trim() !== '') {
          const written = directory.trim();
          const space = written.startsWith('/')
            ? joinInside('', written.slice(1))
            : joinInside(folder, written);
          if (space !== null && !spaces.includes(space)) spaces.push(space);
        }
        visit(children, depth + 1);
      }
    };
    let value: unknown;
    try {
      value = document.toJS({ maxAliasCount: 100 });
    } catch {
      value = null;
    }
    visit((value as { site?: { structure?: unknown } } | null)?.site?.structure, 0);
    return { file, spaces, problems: yamlProblems(document, file) };
  }
  return null;
}
