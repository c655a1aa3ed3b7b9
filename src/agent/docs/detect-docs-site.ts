import { lstat } from 'node:fs/promises';
import { posix } from 'node:path';
import { readTextFile } from '../tools/file-policy.ts';
import { resolveRepositoryPath } from '../tools/path-safety.ts';
import { isToolError } from '../tools/tool-error.ts';
import type { DocsSite } from './docs-site.ts';
import {
  parseMkDocsYaml,
  readDocusaurusNavigation,
  readMintlifyNavigation,
  readMkDocsNavigation,
} from './read-navigation.ts';

const configurationLimitBytes = 2 * 1024 * 1024;

/**
 * Detects the documentation framework from its configuration file, looked for at the repository
 * root and in `docs/`: Mintlify (`docs.json`, `mint.json`), Docusaurus (`docusaurus.config.*`, with
 * navigation from `sidebars.json`), MkDocs (`mkdocs.yml`), otherwise plain Markdown.
 * Configuration files are read through the same path checks as the tools (a link cannot lead outside).
 */
export async function detectDocsSite(root: string): Promise<DocsSite> {
  const read = async (path: string): Promise<string | null> => {
    try {
      const resolved = await resolveRepositoryPath(root, path);
      if ((await lstat(resolved.absolute).catch(() => null)) === null) return null;
      return await readTextFile(resolved, configurationLimitBytes);
    } catch (error: unknown) {
      if (isToolError(error)) return null;
      throw error;
    }
  };

  for (const folder of ['', 'docs']) {
    for (const name of ['docs.json', 'mint.json']) {
      const configFile = posix.join(folder, name);
      const text = await read(configFile);
      if (text === null) continue;
      const parsed = parseJson(configFile, text);
      return {
        framework: 'mintlify',
        configFile,
        contentRoot: folder,
        navigation: parsed.value === undefined ? [] : readMintlifyNavigation(parsed.value),
        configurationProblems: parsed.problems,
      };
    }
  }

  for (const folder of ['', 'docs']) {
    const configFile = posix.join(folder, 'mkdocs.yml');
    const text = (await read(configFile)) ?? (await read(posix.join(folder, 'mkdocs.yaml')));
    if (text === null) continue;
    try {
      const configuration = parseMkDocsYaml(text) as { docs_dir?: unknown } | null;
      const docsDirectory = typeof configuration?.docs_dir === 'string' ? configuration.docs_dir : 'docs';
      return {
        framework: 'mkdocs',
        configFile,
        contentRoot: posix.normalize(posix.join(folder, docsDirectory)).replace(/^\.\/?$/, ''),
        navigation: readMkDocsNavigation(configuration),
        configurationProblems: [],
      };
    } catch (error: unknown) {
      return {
        framework: 'mkdocs',
        configFile,
        contentRoot: posix.join(folder, 'docs'),
        navigation: null,
        configurationProblems: [
          `${configFile}: ${error instanceof Error ? error.message.split('\n')[0] : 'invalid YAML'}`,
        ],
      };
    }
  }

  for (const name of ['docusaurus.config.ts', 'docusaurus.config.js', 'docusaurus.config.mjs']) {
    if ((await read(name)) === null) continue;
    const sidebars = await read('sidebars.json');
    const parsed =
      sidebars === null ? { value: undefined, problems: [] } : parseJson('sidebars.json', sidebars);
    return {
      framework: 'docusaurus',
      // A sidebars.js/ts file is code; it is never run, so its navigation is not checked.
      configFile: sidebars === null ? name : 'sidebars.json',
      contentRoot: 'docs',
      navigation: parsed.value === undefined ? null : readDocusaurusNavigation(parsed.value),
      configurationProblems: parsed.problems,
    };
  }

  return {
    framework: 'markdown',
    configFile: null,
    contentRoot: '',
    navigation: null,
    configurationProblems: [],
  };
}

function parseJson(file: string, text: string): { value: unknown; problems: string[] } {
  try {
    return { value: JSON.parse(text), problems: [] };
  } catch (error: unknown) {
    return {
      value: undefined,
      problems: [`${file}: ${error instanceof Error ? error.message : 'invalid JSON'}`],
    };
  }
}
