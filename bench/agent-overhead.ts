// The agent's overhead outside the model, on a generated Mintlify site of 5,000 files, measured the
// way Quire does it (a bare mirror per repository, fetched before each run, and a worktree per run)
// beside the naive way (a fresh `git clone` per run), in the same process.
//   node bench/agent-overhead.ts [--files 5000] [--runs 9]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultAgentLimits } from '../src/agent/agent-limits.ts';
import { createDocsAgentRunner } from '../src/agent/docs-agent-runner.ts';
import type { AgentRunner } from '../src/agent-jobs/agent-runner.ts';
import { createInMemoryReviewStore } from '../src/code-hosts/local/in-memory-review-store.ts';
import { createLocalCodeHost } from '../src/code-hosts/local/local-code-host.ts';
import { createGitWorkspace } from '../src/workspace/git-workspace.ts';
import type { Workspace } from '../src/workspace/workspace.ts';
import { scriptedModel } from '../test/scripted-model.ts';
import { git } from '../test/temporary-repository.ts';
import { createNaiveCloneWorkspace } from './naive-clone-workspace.ts';

const { values } = parseArgs({
  options: { files: { type: 'string', default: '5000' }, runs: { type: 'string', default: '9' } },
});
const fileCount = Number(values.files);
const runs = Number(values.runs);
if (!Number.isInteger(fileCount) || fileCount < 2 || !Number.isInteger(runs) || runs < 1) {
  throw new Error('--files must be a whole number of at least 2, --runs at least 1');
}
const sections = 50;
// The page the scripted run edits: one in the middle of the generated site, whatever its size.
const editedIndex = Math.floor((fileCount - 1) / 2);
const editedPage = Math.floor(editedIndex / sections);
const editedPath = `pages/section-${editedIndex % sections}/page-${editedPage}.mdx`;

const root = await mkdtemp(join(tmpdir(), 'quire-bench-'));
const origin = join(root, 'origin');
try {
  const generated = performance.now();
  await generateSite(origin, fileCount);
  console.log(`generated a ${fileCount}-file site in ${Math.round(performance.now() - generated)} ms`);

  const results: Array<[string, number[], number[]]> = [];
  for (const [name, workspace] of [
    ['mirror + worktree (Quire)', createGitWorkspace({ dataDirectory: join(root, 'quire-data') })],
    ['fresh git clone (naive)', createNaiveCloneWorkspace({ dataDirectory: join(root, 'naive-data') })],
  ] as Array<[string, Workspace]>) {
    // The first clone of the mirror is paid once per repository, not per run.
    const first = performance.now();
    await workspace.remove(
      await workspace.prepare({ repository: origin, baseRef: 'main', branch: 'quire/warm-up' }),
    );
    console.log(`${name}: first prepare ${Math.round(performance.now() - first)} ms`);
    const ready: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now();
      const worktree = await workspace.prepare({
        repository: origin,
        baseRef: 'main',
        branch: `quire/ready-${run}`,
      });
      ready.push(performance.now() - started);
      await workspace.remove(worktree);
    }
    // One runner per worker process, as Quire has it: its first run on a base commit reads and checks
    // the whole site (cached per commit); later runs reuse that. The first is shown apart.
    const runner = createRunner(workspace);
    const firstRun = await wholeRun(runner, `${name.length}first`);
    console.log(`${name}: first whole run on this base commit ${Math.round(firstRun)} ms`);
    const whole: number[] = [];
    for (let run = 0; run < runs; run += 1) whole.push(await wholeRun(runner, `${name.length}${run}`));
    results.push([name, ready, whole]);
  }
  console.log('');
  console.log(
    `| ${fileCount} files, ${runs} runs each | workspace ready p50 | workspace ready p90 | whole overhead p50 | whole overhead p90 |`,
  );
  console.log('|---|---|---|---|---|');
  for (const [name, ready, whole] of results) {
    console.log(
      `| ${name} | ${percentile(ready, 50)} ms | ${percentile(ready, 90)} ms | ${percentile(whole, 50)} ms | ${percentile(whole, 90)} ms |`,
    );
  }
} finally {
  await rm(root, { recursive: true, force: true });
}

function createRunner(workspace: Workspace): AgentRunner {
  const reviews = createInMemoryReviewStore();
  return createDocsAgentRunner({
    workspace,
    codeHostFor: () => createLocalCodeHost({ repository: origin, publicUrl: 'http://bench', reviews }),
    createModel: () =>
      scriptedModel([
        { toolCalls: [{ toolName: 'read_file', input: { path: editedPath } }] },
        {
          toolCalls: [
            {
              toolName: 'edit_file',
              input: {
                path: editedPath,
                old_string: `Page ${editedPage} of`,
                new_string: `Page number ${editedPage} of`,
                replace_all: true,
              },
            },
          ],
        },
        { toolCalls: [{ toolName: 'validate', input: {} }] },
        { text: 'Reworded the page heading.' },
      ]),
    limits: defaultAgentLimits,
    author: { name: 'Quire', email: 'quire@localhost' },
  });
}

/** One whole job run with a model that answers at once: workspace, validation, commit, push, pull request. */
async function wholeRun(runner: AgentRunner, id: string): Promise<number> {
  const started = performance.now();
  const outcome = await runner.run({
    job: { id: `job${id}bench`, projectId: 'bench', model: 'bench', branch: null, prLink: null },
    project: { id: 'bench', name: 'bench', repository: origin, ref: 'main', codeHost: 'local', settings: {} },
    messages: [{ id: 'm', prompt: `Bench run ${id}`, createdAt: new Date() }],
    history: [],
    signal: new AbortController().signal,
    emit: async () => {},
  });
  if (outcome.prLink === null) throw new Error('the bench run published nothing');
  return performance.now() - started;
}

async function generateSite(directory: string, files: number): Promise<void> {
  const pages: string[] = [];
  for (let index = 0; pages.length < files - 1; index += 1) {
    const section = index % sections;
    const page = Math.floor(index / sections);
    const path = `pages/section-${section}/page-${page}`;
    pages.push(path);
    const file = join(directory, `${path}.mdx`);
    await mkdir(dirname(file), { recursive: true });
    const next = `/pages/section-${(section + 1) % sections}/page-${page}`;
    await writeFile(
      file,
      `---\ntitle: Page ${page}\n---\n\n# Page ${page} of section ${section}\n\nPage ${page} of section ${section} explains a feature. See [the next page](${next}).\n\n${'Lorem ipsum dolor sit amet. '.repeat(20)}\n`,
    );
  }
  const groups = Array.from({ length: sections }, (_, section) => ({
    group: `Section ${section}`,
    pages: pages.filter((path) => path.startsWith(`pages/section-${section}/`)),
  }));
  await writeFile(
    join(directory, 'docs.json'),
    `${JSON.stringify({ name: 'Bench', navigation: { groups } }, null, 2)}\n`,
  );
  git(directory, 'init', '--quiet', '--initial-branch=main');
  git(directory, 'add', '--all');
  git(directory, 'commit', '--quiet', '-m', 'Generated site');
}

function percentile(values: number[], rank: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((rank / 100) * sorted.length) - 1)] ?? 0);
}
