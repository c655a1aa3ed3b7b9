/** What the agent knows about a documentation repository before it starts. */
export type DocsFramework = 'mintlify' | 'docusaurus' | 'mkdocs' | 'markdown';

export interface NavigationEntry {
  /** The reference exactly as written in the configuration (`quickstart`, `guide/setup.md`, ...). */
  reference: string;
  /** Group titles from the top of the navigation down to this entry. */
  groups: string[];
}

export interface DocsSite {
  framework: DocsFramework;
  /** The configuration file that holds the navigation, relative to the repository root; null for plain Markdown. */
  configFile: string | null;
  /** The folder pages live under, relative to the repository root ('' for the root). */
  contentRoot: string;
  /** The navigation entries in order; null when the framework builds navigation from the files itself. */
  navigation: NavigationEntry[] | null;
  /** Problems reading the configuration itself (a JSON or YAML syntax error). */
  configurationProblems: string[];
}

export const pageExtensions = ['.mdx', '.md'] as const;

export function isPagePath(path: string): boolean {
  return pageExtensions.some((extension) => path.toLowerCase().endsWith(extension));
}
