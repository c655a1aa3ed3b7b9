import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { startOpenAICompatibleServer } from '../../../test/openai-compatible-server.ts';
import { createRepository, git, temporaryDirectory } from '../../../test/temporary-repository.ts';
import type { AgentEvent, AgentRunInput } from '../../agent-jobs/agent-runner.ts';
import { unlimitedBudget } from '../../agent-jobs/run-budget.ts';
import { createInMemoryReviewStore } from '../../code-hosts/local/in-memory-review-store.ts';
import { createLocalCodeHost } from '../../code-hosts/local/local-code-host.ts';
import { isQuireError } from '../../errors.ts';
import { createGitWorkspace } from '../../workspace/git-workspace.ts';
import { defaultAgentLimits } from '../agent-limits.ts';
import { createDocsAgentRunner } from '../docs-agent-runner.ts';
import { chooseModelName, createLanguageModel } from './create-language-model.ts';

const noKeys = {
  anthropicApiKey: null,
  openaiApiKey: null,
  openaiCompatibleBaseUrl: null,
  openaiCompatibleApiKey: null,
};

describe('createLanguageModel', () => {
  it('refuses malformed names and missing keys without retry', () => {
    for (const [name, message] of [
      ['gpt-4o', /not <provider>:<model-id>/],
      ['anthropic:claude', /ANTHROPIC_API_KEY is not set/],
      ['openai:gpt-4o', /OPENAI_API_KEY is not set/],
      ['openai-compatible:llama', /OPENAI_COMPATIBLE_BASE_URL is not set/],
    ] as const) {
      assert.throws(
        () => createLanguageModel(name, noKeys),
        (error: unknown) =>
          isQuireError(error) && error.code === 'non_retriable' && message.test(error.message),
      );
    }
    assert.equal(
      createLanguageModel('anthropic:claude-sonnet-4-5', { ...noKeys, anthropicApiKey: 'k' }).toString()
        .length > 0,
      true,
    );
  });
  it('prefers a valid project override', () => {
    assert.equal(chooseModelName({ model: 'openai:gpt-4o' }, 'anthropic:claude'), 'openai:gpt-4o');
    assert.equal(chooseModelName({ model: 'nonsense' }, 'anthropic:claude'), 'anthropic:claude');
    assert.equal(chooseModelName({}, null), null);
  });
});

describe('the agent against a scripted OpenAI-compatible server', () => {
  let directory: ReturnType<typeof temporaryDirectory>;
  let origin: string;
  beforeEach(() => {
    directory = temporaryDirectory();
    origin = createRepository(join(directory.path, 'origin'), {
      'README.md': '# Acme\n\nAcme is a a tool.\n',
    });
  });
  afterEach(() => directory.cleanup());

  const run = async (
    script: Parameters<typeof startOpenAICompatibleServer>[0]['script'],
    modelRetries = 0,
  ) => {
    const server = await startOpenAICompatibleServer({ apiKey: 'sk-test-secret', script });
    const events: AgentEvent[] = [];
    const reviews = createInMemoryReviewStore();
    const agent = createDocsAgentRunner({
      workspace: createGitWorkspace({ dataDirectory: join(directory.path, 'data') }),
      codeHostFor: () => createLocalCodeHost({ repository: origin, publicUrl: 'http://quire.test', reviews }),
      createModel: (name) =>
        createLanguageModel(name, {
          ...noKeys,
          openaiCompatibleBaseUrl: server.baseUrl,
          openaiCompatibleApiKey: 'sk-test-secret',
        }),
      limits: { ...defaultAgentLimits, modelRetries },
      author: { name: 'Quire', email: 'quire@example.com' },
    });
    const input: AgentRunInput = {
      job: {
        id: 'job_abcdef12',
        projectId: 'p',
        model: 'openai-compatible:scripted-llm',
        branch: null,
        prLink: null,
      },
      project: { id: 'p', name: 'p', repository: origin, ref: 'main', codeHost: 'local', settings: {} },
      messages: [{ id: 'm', prompt: 'Fix the duplicated word in the README', createdAt: new Date() }],
      history: [],
      budget: unlimitedBudget,
      signal: new AbortController().signal,
      emit: async (event) => {
        events.push(event);
      },
    };
    try {
      return { outcome: await agent.run(input).catch((error: unknown) => error as Error), server, events };
    } finally {
      await server.close();
    }
  };

  it('sends the contract tools, runs the loop and publishes', async () => {
    const { outcome, server, events } = await run([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] },
      (request) => {
        const toolMessage = request.messages.at(-1);
        assert.equal(toolMessage?.role, 'tool');
        assert.match(String(toolMessage?.content), /3\tAcme is a a tool\./);
        return {
          toolCalls: [
            {
              name: 'edit_file',
              arguments: { path: 'README.md', old_string: 'a a tool', new_string: 'a tool' },
            },
          ],
        };
      },
      { text: 'Removed the duplicated "a".' },
    ]);
    assert.ok(!(outcome instanceof Error), String(outcome));
    assert.equal(outcome.prLink?.startsWith('http://quire.test/review/'), true);
    assert.deepEqual(outcome.usage, {
      inputTokens: 750,
      outputTokens: 90,
      // The double reports 200 cached prompt tokens on every call after the first, as OpenAI does.
      cacheReadTokens: 400,
      cacheWriteTokens: 0,
    });
    assert.equal(git(origin, 'show', `${outcome.branch}:README.md`), '# Acme\n\nAcme is a tool.\n');
    assert.deepEqual(server.chatRequests[0]?.tools?.map((tool) => tool.function.name).sort(), [
      'delete_file',
      'edit_file',
      'list_files',
      'move_file',
      'read_file',
      'search',
      'validate',
      'write_file',
    ]);
    assert.equal(server.chatRequests[0]?.model, 'scripted-llm');
    assert.doesNotMatch(JSON.stringify([events, outcome.history, server.chatRequests]), /sk-test-secret/);
  });

  it('fails with a clear error when the server keeps failing, and without retry when it rejects the key', async () => {
    const failing = await run([{ status: 503, error: 'overloaded' }], 1);
    assert.ok(failing.outcome instanceof Error);
    assert.match(failing.outcome.message, /The model call failed after retries \(HTTP 503: overloaded\)/);
    assert.equal(failing.server.chatRequests.length, 2, 'the AI SDK retried once');
    const rejected = await run([{ status: 401, error: 'Incorrect API key provided' }]);
    assert.ok(isQuireError(rejected.outcome));
    assert.match(
      rejected.outcome.message,
      /rejected the credentials \(HTTP 401: Incorrect API key provided\)/,
    );
  });
});
