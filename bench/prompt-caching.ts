// What Anthropic prompt-cache breakpoints save on a multi-turn agent job: the real agent (tool loop,
// workspace, validation, local code host) runs a job of two messages (a first instruction, then a
// follow-up that replays the conversation) against a scripted Anthropic Messages API that reports
// usage as Anthropic documents it (`input_tokens`, `cache_creation_input_tokens`,
// `cache_read_input_tokens`; test/anthropic-messages-server.ts), through the real AI SDK provider.
// The same script runs three times: with every breakpoint Quire sets (the system prompt and the
// newest message), with the system prompt's only, and with none; costs use model-prices.json.
//   node bench/prompt-caching.ts [--pages 40] [--extra-reads 0] [--model anthropic:claude-sonnet-4-5]
// (`--extra-reads N`: the first run reads N more pages, one call each, for a longer conversation)
// https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultAgentLimits } from '../src/agent/agent-limits.ts';
import { createDocsAgentRunner } from '../src/agent/docs-agent-runner.ts';
import { createLanguageModel } from '../src/agent/model/create-language-model.ts';
import type { AgentRunInput, AgentRunOutcome } from '../src/agent-jobs/agent-runner.ts';
import { unlimitedBudget } from '../src/agent-jobs/run-budget.ts';
import { addUsage, estimateCost, noUsage, priceOf, type RunUsage } from '../src/agent-jobs/run-usage.ts';
import { createInMemoryReviewStore } from '../src/code-hosts/local/in-memory-review-store.ts';
import { createLocalCodeHost } from '../src/code-hosts/local/local-code-host.ts';
import { createGitWorkspace } from '../src/workspace/git-workspace.ts';
import { type AnthropicTurn, startAnthropicMessagesServer } from '../test/anthropic-messages-server.ts';
import { git } from '../test/temporary-repository.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '40' },
    'extra-reads': { type: 'string', default: '0' },
    model: { type: 'string', default: 'anthropic:claude-sonnet-4-5' },
  },
});
const pageCount = Number(values.pages);
const extraReads = Number(values['extra-reads']);
if (
  !Number.isInteger(pageCount) ||
  !Number.isInteger(extraReads) ||
  extraReads < 0 ||
  pageCount < extraReads + 3
)
  throw new Error(
    '--pages and --extra-reads must be whole numbers, with at least 3 pages more than extra reads',
  );
const model = values.model;
const price = priceOf(model);
if (price === null) throw new Error(`No price for ${model} in src/agent-jobs/model-prices.json`);

const apiKey = 'sk-ant-bench';
const root = await mkdtemp(join(tmpdir(), 'quire-bench-cache-'));
const origin = join(root, 'origin');
try {
  await generateSite(origin, pageCount);
  const rows: Array<{ name: string; calls: number; usage: RunUsage; perCall: string[] }> = [];
  for (const [name, honour] of [
    ['Quire: system prompt + newest message', 'all'],
    ['system prompt only', 'system-only'],
    ['no breakpoint (no caching)', 'none'],
  ] as const) {
    const server = await startAnthropicMessagesServer({ apiKey, honour });
    try {
      const usage = await runJob(server, join(root, `data-${honour}`), `job_${rows.length}cache`);
      const perCall = server.usages.map(
        (call) =>
          `${call.cache_read_input_tokens}r/${call.cache_creation_input_tokens}w/${call.input_tokens}i`,
      );
      // The agent's own count (the AI SDK's mapping of Anthropic's fields) against the server's.
      const reported = server.usages.reduce(
        (total, call) => ({
          inputTokens:
            total.inputTokens +
            call.input_tokens +
            call.cache_creation_input_tokens +
            call.cache_read_input_tokens,
          outputTokens: total.outputTokens + call.output_tokens,
          cacheReadTokens: total.cacheReadTokens + call.cache_read_input_tokens,
          cacheWriteTokens: total.cacheWriteTokens + call.cache_creation_input_tokens,
        }),
        noUsage,
      );
      if (JSON.stringify(reported) !== JSON.stringify(usage))
        throw new Error(
          `${name}: the run counted ${JSON.stringify(usage)}, the API reported ${JSON.stringify(reported)}`,
        );
      rows.push({ name, calls: server.usages.length, usage, perCall });
    } finally {
      await server.close();
    }
  }

  const uncachedCost = (usage: RunUsage) =>
    estimateCost({ ...usage, cacheReadTokens: 0, cacheWriteTokens: 0 }, price);
  console.log(
    `A two-message job on a ${pageCount}-page site (${extraReads} extra reads), ${rows[0]?.calls ?? 0} model calls, priced as ${model} ($${price.input} input, $${price.cacheWrite} cache write, $${price.cacheRead} cache read, $${price.output} output per million tokens)`,
  );
  console.log('');
  console.log(
    '| Breakpoints | Input tokens | Read from cache | Written to cache | Billed at base price | Output | Estimated cost | Without caching | Saved |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { name, usage } of rows) {
    const cost = estimateCost(usage, price);
    const without = uncachedCost(usage);
    const base = usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens;
    console.log(
      `| ${name} | ${usage.inputTokens.toLocaleString('en')} | ${usage.cacheReadTokens.toLocaleString('en')} | ${usage.cacheWriteTokens.toLocaleString('en')} | ${base.toLocaleString('en')} | ${usage.outputTokens.toLocaleString('en')} | $${cost.toFixed(4)} | $${without.toFixed(4)} | ${Math.round((1 - cost / without) * 100)}% |`,
    );
  }
  console.log('');
  for (const { name, perCall } of rows)
    console.log(`${name}, per call (read/written/base): ${perCall.join(' ')}`);
} finally {
  await rm(root, { recursive: true, force: true });
}

/** The job: a first instruction, then a follow-up on the same branch, each a run of the real agent. */
async function runJob(
  server: Awaited<ReturnType<typeof startAnthropicMessagesServer>>,
  dataDirectory: string,
  jobId: string,
): Promise<RunUsage> {
  const reviews = createInMemoryReviewStore();
  const runner = createDocsAgentRunner({
    workspace: createGitWorkspace({ dataDirectory }),
    codeHostFor: () => createLocalCodeHost({ repository: origin, publicUrl: 'http://bench', reviews }),
    createModel: (name) =>
      createLanguageModel(
        name,
        {
          anthropicApiKey: apiKey,
          openaiApiKey: null,
          openaiCompatibleBaseUrl: null,
          openaiCompatibleApiKey: null,
        },
        {
          fetch: (input, init) => {
            const url = new URL(input instanceof Request ? input.url : String(input));
            return fetch(`${server.url}${url.pathname}`, init);
          },
        },
      ),
    limits: defaultAgentLimits,
    author: { name: 'Quire', email: 'quire@localhost' },
  });
  // A job of its own per mode (the first eight characters of its id name its branch), so that
  // each starts from the same site.
  const job = {
    id: jobId,
    projectId: 'bench',
    model,
    branch: null as string | null,
    prLink: null as string | null,
  };
  const project = {
    id: 'bench',
    name: 'Bench',
    repository: origin,
    ref: 'main',
    codeHost: 'local' as const,
    settings: {},
  };
  const run = (prompt: string, history: unknown[]): Promise<AgentRunOutcome> => {
    const input: AgentRunInput = {
      job,
      project,
      messages: [{ id: `msg_${history.length}`, prompt, createdAt: new Date() }],
      history,
      budget: unlimitedBudget,
      signal: new AbortController().signal,
      emit: async () => {},
    };
    return runner.run(input);
  };

  server.script.push(...firstRunTurns());
  const first = await run(
    'Document the --dry-run flag of `acme deploy` in the CLI reference and the deploy guide.',
    [],
  );
  if (first.prLink === null) throw new Error('the first run published nothing');
  job.branch = first.branch;
  job.prLink = first.prLink;
  server.script.push(...followUpTurns());
  const second = await run('Also mention --dry-run in the troubleshooting page.', first.history);
  if (server.script.length > 0) throw new Error(`${server.script.length} scripted turn(s) were not used`);
  return addUsage(first.usage, second.usage);
}

/** Searches, reads two pages, the navigation and `extraReads` more, edits two pages, validates, answers. */
function firstRunTurns(): AnthropicTurn[] {
  const read = (path: string): AnthropicTurn => ({ toolCalls: [{ name: 'read_file', input: { path } }] });
  return [
    { toolCalls: [{ name: 'search', input: { query: 'acme deploy' } }] },
    read('reference/cli.mdx'),
    read('guides/deploy.mdx'),
    read('docs.json'),
    ...Array.from({ length: extraReads }, (_, index) => read(`guides/topic-${index}.mdx`)),
    {
      toolCalls: [
        {
          name: 'edit_file',
          input: {
            path: 'reference/cli.mdx',
            old_string: '## acme deploy\n',
            new_string:
              '## acme deploy\n\n`--dry-run` prints the plan of the deploy (what would be uploaded, and where) and changes nothing.\n',
          },
        },
      ],
    },
    {
      toolCalls: [
        {
          name: 'edit_file',
          input: {
            path: 'guides/deploy.mdx',
            old_string: '## Deploy\n',
            new_string:
              '## Deploy\n\nTry it first with `acme deploy --dry-run`: it prints the plan and changes nothing.\n',
          },
        },
      ],
    },
    { toolCalls: [{ name: 'validate', input: {} }] },
    { text: 'Documented --dry-run in the CLI reference and the deploy guide.', outputTokens: 40 },
  ];
}

/** The follow-up: reads one page, edits it, answers. */
function followUpTurns(): AnthropicTurn[] {
  return [
    { toolCalls: [{ name: 'read_file', input: { path: 'guides/troubleshooting.mdx' } }] },
    {
      toolCalls: [
        {
          name: 'edit_file',
          input: {
            path: 'guides/troubleshooting.mdx',
            old_string: '## Troubleshooting\n',
            new_string:
              '## Troubleshooting\n\nUnsure what a deploy will do? Run `acme deploy --dry-run` first.\n',
          },
        },
      ],
    },
    { text: 'Mentioned --dry-run in the troubleshooting page.', outputTokens: 30 },
  ];
}

/** A Mintlify site: the pages the script reads, and `pages` - 3 more of about 2,500 characters each. */
async function generateSite(directory: string, pages: number): Promise<void> {
  const body = (title: string) =>
    `---\ntitle: ${title}\n---\n\n## ${title}\n\n${`${title} explains one part of Acme: what it does, when to use it, and what to check first. `.repeat(20)}\n\nSee the [CLI reference](/reference/cli).\n`;
  const files: Record<string, string> = {
    'reference/cli.mdx': `---\ntitle: CLI reference\n---\n\n${['init', 'build', 'deploy', 'logs', 'rollback']
      .map(
        (command) =>
          `## acme ${command}\n\n${`\`acme ${command}\` takes the project in the current folder. `.repeat(12)}\n`,
      )
      .join('\n')}`,
    'guides/deploy.mdx': body('Deploy'),
    'guides/troubleshooting.mdx': body('Troubleshooting'),
  };
  for (let index = 0; index < pages - 3; index += 1)
    files[`guides/topic-${index}.mdx`] = body(`Topic ${index}`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(directory, path)), { recursive: true });
    await writeFile(join(directory, path), content);
  }
  const navigation = {
    name: 'Acme',
    navigation: {
      groups: [
        {
          group: 'Guides',
          pages: Object.keys(files)
            .filter((path) => path.startsWith('guides/'))
            .map((path) => path.replace(/\.mdx$/, '')),
        },
        { group: 'Reference', pages: ['reference/cli'] },
      ],
    },
  };
  await writeFile(join(directory, 'docs.json'), `${JSON.stringify(navigation, null, 2)}\n`);
  git(directory, 'init', '--quiet', '--initial-branch=main');
  git(directory, 'add', '--all');
  git(directory, 'commit', '--quiet', '-m', 'Generated site');
}
