/**
 * move_file and delete_file name the redirects they leave pointing at no page (a Mintlify site
 * here, in the shape of ollama's docs.json: redirects written above navigation).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createRepository, git, temporaryDirectory } from '../../../test/temporary-repository.ts';
import { createSiteCaches, SiteSession } from '../site-session.ts';
import { createRunChanges, type ToolContext } from './tool-context.ts';
import { executeRepositoryTool, repositoryTools } from './tool-set.ts';

const docsJson = [
  '{',
  '  "redirects": [',
  '    { "source": "/old-guide", "destination": "/guide" }',
  '  ],',
  '  "navigation": { "groups": [{ "group": "Start", "pages": [',
  '    "index",',
  '    "guide"',
  '  ] }] }',
  '}',
  '',
].join('\n');

describe('redirects a move or delete leaves behind', () => {
  let directory: ReturnType<typeof temporaryDirectory>;
  let context: ToolContext;
  beforeEach(async () => {
    directory = temporaryDirectory();
    const root = createRepository(join(directory.path, 'repository'), {
      'docs.json': docsJson,
      'index.mdx': '# Home\n',
      'guide.mdx': '# Guide\n',
    });
    const commit = git(root, 'rev-parse', 'HEAD').trim();
    const site = await SiteSession.open({
      root,
      baseCommit: commit,
      startCommit: commit,
      maximumFileBytes: 1024 * 1024,
      caches: createSiteCaches(),
    });
    context = {
      root,
      maximumFileBytes: 1024 * 1024,
      readPaths: new Set(),
      changes: createRunChanges(site),
      validate: async () => ({ problems: [], alreadyPresent: [], unsupported: [] }),
      site,
    };
  });
  afterEach(() => directory.cleanup());

  const run = (name: keyof typeof repositoryTools, input: unknown) =>
    executeRepositoryTool(repositoryTools[name] as never, input as never, context);

  it('a move updates the navigation entry and names the redirect still sending readers to the old path', async () => {
    const answer = await run('move_file', { from: 'guide.mdx', to: 'guides/guide.mdx' });
    assert.match(answer, /docs\.json:7: navigation entry "guide" updated to "guides\/guide"/);
    assert.match(answer, /- docs\.json:3: Redirect destination "\/guide" names no page; update it/);
  });

  it('a delete names the redirect too', async () => {
    const answer = await run('delete_file', { path: 'guide.mdx' });
    assert.match(answer, /- docs\.json:3: Redirect destination "\/guide" names no page; update it/);
  });

  it('a page no redirect names adds no such line', async () => {
    const answer = await run('move_file', { from: 'index.mdx', to: 'start/index.mdx' });
    assert.doesNotMatch(answer, /Redirect/);
  });
});
