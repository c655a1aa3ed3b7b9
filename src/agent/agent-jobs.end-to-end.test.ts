// "Done means" for the agent: real HTTP API, queue, worker, PostgreSQL, git and review pages, with the
// model played by a scripted OpenAI-compatible server that the test starts.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildTestServices } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../test/factories.ts';
import {
  type ChatRequest,
  type ChatTurn,
  startOpenAICompatibleServer,
} from '../../test/openai-compatible-server.ts';
import { createRepository, git, temporaryDirectory } from '../../test/temporary-repository.ts';
import { createAgentRunner } from './create-agent-runner.ts';

const lastUserPrompt = (request: ChatRequest) =>
  String(request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '');
const toolResultsSinceLastUser = (request: ChatRequest) => {
  const lastUser = request.messages.map((message) => message.role).lastIndexOf('user');
  return request.messages.slice(lastUser + 1).filter((message) => message.role === 'tool').length;
};

/** The scripted model: a few small plans chosen by the latest instruction. */
function scriptedTurn(request: ChatRequest): ChatTurn {
  const prompt = lastUserPrompt(request);
  const done = toolResultsSinceLastUser(request);
  const plan = (turns: ChatTurn[]): ChatTurn => turns[done] ?? { text: 'Done.' };
  if (prompt.includes('typo')) {
    return plan([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'docs/quickstart.md' } }] },
      {
        toolCalls: [
          {
            name: 'edit_file',
            arguments: { path: 'docs/quickstart.md', old_string: 'Instal the', new_string: 'Install the' },
          },
        ],
      },
      { text: 'Fixed the typo "Instal" in the quickstart.' },
    ]);
  }
  if (prompt.includes('troubleshooting')) {
    return plan([
      {
        toolCalls: [
          {
            name: 'write_file',
            arguments: { path: 'docs/troubleshooting.md', content: '# Troubleshooting\n\nRestart it.\n' },
          },
        ],
      },
      { text: 'Added a troubleshooting page.' },
    ]);
  }
  if (prompt.includes('overloaded')) return { status: 503, error: 'overloaded' };
  if (prompt.includes('wrong key')) return { status: 401, error: 'Incorrect API key provided' };
  return plan([
    { toolCalls: [{ name: 'search', arguments: { query: 'Kubernetes' } }] },
    { text: 'Nothing mentions Kubernetes; nothing to change.' },
  ]);
}

describe('agent jobs end to end on the embedded default (local code host)', async () => {
  const directory = temporaryDirectory();
  const server = await startOpenAICompatibleServer({ apiKey: 'sk-e2e-secret', script: [scriptedTurn] });
  after(async () => {
    await server.close();
    directory.cleanup();
  });
  const database = await createTestDatabase();
  const services = await buildTestServices(database, {
    environment: {
      QUIRE_DATA_DIR: join(directory.path, 'data'),
      QUIRE_PUBLIC_URL: 'http://quire.test',
      QUIRE_MODEL: 'openai-compatible:scripted-llm',
      OPENAI_COMPATIBLE_BASE_URL: server.baseUrl,
      OPENAI_COMPATIBLE_API_KEY: 'sk-e2e-secret',
    },
  });
  await services.startWorker(
    createAgentRunner(services.config, database, {
      secrets: services.secrets,
      limits: { modelRetries: 0 },
    }),
  );
  const repository = createRepository(join(directory.path, 'docs-repo'), {
    'mkdocs.yml': 'site_name: Acme\nnav:\n  - Home: index.md\n  - Quickstart: quickstart.md\n',
    'docs/index.md': '# Acme\n\nSee the [quickstart](quickstart.md).\n',
    'docs/quickstart.md': '# Quickstart\n\nInstal the CLI.\n',
  });
  const { project, key } = await buildProjectWithKey(database.pool, {
    project: { repository, codeHost: 'local', ref: 'main' },
  });
  const headers = bearer(key);

  async function waitFor(jobId: string): Promise<Record<string, unknown>> {
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const response = await services.app.inject({
        method: 'GET',
        url: `/v2/agent/${project.id}/job/${jobId}`,
        headers,
      });
      const job = response.json() as Record<string, unknown>;
      if (job.status !== 'active') return job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the job did not finish');
  }
  async function create(prompt: string) {
    const response = await services.app.inject({
      method: 'POST',
      url: `/v2/agent/${project.id}/job`,
      headers,
      payload: { prompt },
    });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { id: string; model: string };
  }

  it('edits the repository on its own branch, completes with a review link showing the diff; a follow-up adds to the same branch and link', async () => {
    const created = await create('Fix the typo in the quickstart');
    assert.equal(created.model, 'openai-compatible:scripted-llm');
    const job = await waitFor(created.id);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.match(String(job.prLink), /^http:\/\/quire\.test\/review\/rev_[0-9a-z]{20}$/);
    const branch = git(repository, 'branch', '--list', '--format=%(refname:short)', 'quire/*').trim();
    assert.match(branch, /^quire\/[0-9a-z]{8}-fix-the-typo-in-the-quickstart$/);
    assert.equal(
      git(repository, 'show', `${branch}:docs/quickstart.md`),
      '# Quickstart\n\nInstall the CLI.\n',
    );
    assert.equal(git(repository, 'show', 'main:docs/quickstart.md'), '# Quickstart\n\nInstal the CLI.\n');

    const page = await services.app.inject({
      method: 'GET',
      url: new URL(String(job.prLink)).pathname,
      headers,
    });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<span class="removed">-Instal the CLI\.<\/span>/);
    assert.match(page.body, /<span class="added">\+Install the CLI\.<\/span>/);
    assert.match(page.body, /Fixed the typo &#34;Instal&#34; in the quickstart\./);

    const followUp = await services.app.inject({
      method: 'POST',
      url: `/v2/agent/${project.id}/job/${created.id}/message`,
      headers,
      payload: { prompt: 'Also add a troubleshooting page' },
    });
    assert.equal(followUp.statusCode, 200, followUp.body);
    const after = await waitFor(created.id);
    assert.equal(after.status, 'completed', JSON.stringify(after));
    assert.equal(after.prLink, job.prLink);
    assert.equal(git(repository, 'log', '--format=%s', branch).trim().split('\n').length, 3);
    assert.equal(
      git(repository, 'show', `${branch}:docs/troubleshooting.md`),
      '# Troubleshooting\n\nRestart it.\n',
    );
    // The follow-up's model call carried the earlier conversation.
    const followUpCall = server.chatRequests.find((request) =>
      lastUserPrompt(request).includes('troubleshooting'),
    );
    assert.ok(
      followUpCall?.messages.some((message) =>
        String(message.content).includes('Fix the typo in the quickstart'),
      ),
    );
    // The new page is missing from mkdocs navigation: validation said so, and the review lists it.
    const updated = await services.app.inject({
      method: 'GET',
      url: new URL(String(job.prLink)).pathname,
      headers,
    });
    assert.match(
      updated.body,
      /docs\/troubleshooting\.md:1: New page is missing from navigation; add it to mkdocs\.yml/,
    );

    const events = await services.app.inject({
      method: 'GET',
      url: `/v2/agent/${project.id}/job/${created.id}/events`,
      headers,
    });
    const types =
      (events.json() as { events?: Array<{ type: string }> }).events?.map((event) => event.type) ?? [];
    for (const type of [
      'workspace-ready',
      'step-end',
      'validation-end',
      'commit-create',
      'branch-push',
      'pull-request-open',
      'pull-request-update',
    ]) {
      assert.ok(types.includes(type), `${type} in ${types.join(',')}`);
    }
    assert.doesNotMatch(events.body, /sk-e2e-secret/);
  });

  it('completes with prLink null when nothing changes', async () => {
    const job = await waitFor((await create('Rename Kubernetes to K8s')).id);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.equal(job.prLink, null);
  });

  it('fails with a clear error when the model keeps failing, and at once when the provider rejects the key', async () => {
    const rejected = await waitFor((await create('Use the wrong key')).id);
    assert.equal(rejected.status, 'failed');
    assert.match(
      String(rejected.error),
      /The model provider rejected the credentials \(HTTP 401: Incorrect API key provided\)/,
    );
    const failing = await waitFor((await create('The model is overloaded')).id);
    assert.equal(failing.status, 'failed');
    assert.match(String(failing.error), /The model call failed after retries \(HTTP 503: overloaded\)/);
  });
});
