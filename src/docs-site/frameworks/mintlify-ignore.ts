/**
 * The files Mintlify leaves out of the site: its default ignores and the `.mintignore` patterns
 * (gitignore syntax, https://mintlify.com/docs/organize/mintignore). Paths are relative to the site root.
 */
export interface IgnoredFiles {
  isIgnored(path: string): boolean;
  /** Patterns this model does not follow (negations), for the run's notes. */
  unsupported: string[];
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
  const patterns: RegExp[] = [];
  const unsupported: string[] = [];
  const lines = (mintignore ?? '').split('\n').slice(0, maximumPatterns);
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('!')) {
      unsupported.push(`.mintignore: the negation "${line}" is not followed; those files count as ignored`);
      continue;
    }
    if (line.length <= maximumPatternLength) patterns.push(globToPattern(line));
  }
  return {
    unsupported,
    isIgnored(path) {
      const segments = path.split('/');
      const name = segments.at(-1) ?? '';
      if (defaultFiles.has(name.toLowerCase())) return true;
      if (segments.slice(0, -1).some((segment) => defaultFolders.has(segment))) return true;
      return patterns.some((pattern) => pattern.test(path));
    },
  };
}

/** A gitignore pattern as a regular expression over a relative path (a folder pattern covers its files). */
function globToPattern(glob: string): RegExp {
  const folderOnly = glob.endsWith('/');
  const body = glob.replace(/\/+$/, '');
  const anchored = body.includes('/');
  let source = '';
  const text = body.replace(/^\//, '');
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] as string;
    if (character === '*' && text[index + 1] === '*') {
      const slash = text[index + 2] === '/';
      source += slash ? '(?:[^/]+/)*' : '.*';
      index += slash ? 2 : 1;
    } else if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else source += character.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const tail = folderOnly ? '/.*' : '(?:/.*)?';
  return new RegExp(`${anchored ? '^' : '(?:^|/)'}${source}${tail}$`);
}
