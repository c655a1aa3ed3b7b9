import ignore from 'ignore';

/**
 * The files Mintlify leaves out of the site: its default ignores and the `.mintignore` patterns
 * (gitignore syntax, https://mintlify.com/docs/organize/mintignore, matched by the `ignore` package,
 * negations included). Paths are relative to the site root.
 */
export interface IgnoredFiles {
  isIgnored(path: string): boolean;
}

const defaultFolders = new Set([
  '.git',
  '.github',
  '.claude',
  '.agents',
  '.idea',
  '.vscode',
  'node_modules',
  'build',
  'dist',
  'coverage',
  '.cache',
  'tmp',
  'temp',
]);
const defaultFiles = new Set(['readme.md', 'license.md', 'changelog.md', 'contributing.md']);
const maximumPatterns = 500;
const maximumPatternLength = 200;

export function readIgnoredFiles(mintignore: string | null): IgnoredFiles {
  const lines = (mintignore ?? '')
    .split('\n')
    .slice(0, maximumPatterns)
    .filter((line) => line.length <= maximumPatternLength);
  const patterns = ignore().add(lines);
  return {
    isIgnored(path) {
      const segments = path.split('/');
      const name = segments.at(-1) ?? '';
      if (defaultFiles.has(name.toLowerCase())) return true;
      if (segments.slice(0, -1).some((segment) => defaultFolders.has(segment))) return true;
      try {
        return patterns.ignores(path);
      } catch {
        // Not a relative path (`ignore` refuses `../x` and absolute paths): never one of the site's.
        return false;
      }
    },
  };
}
