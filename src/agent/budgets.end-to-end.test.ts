// Cost limits end to end: real HTTP API, queue, worker, PostgreSQL and git, with the model played by
// an OpenAI-compatible server that reports usage (and cached prompt tokens) the way OpenAI does.
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
import { createRepository, temporaryDirectory } from '../../test/temporary-repository.ts';
import { updateProjectSettings } from '../projects/project-store.ts';
import { createAgentRunner } from './create-agent-runner.ts';

/** Reads, edits, then answers: three model calls of 250 input and 30 output tokens each. */
function typoPlan(request: ChatRequest): ChatTurn {
  const toolResults = request.messages.filter((message) => message.role === 'tool').length;
  const turns: ChatTurn[] = [
    { toolCalls: [{ name: 'read_file', arguments: { path: 'docs/quickstart.md' } }] },
    {
      toolCalls: [
        {
          name: 'edit_file',
          arguments: { path: 'docs/quickstart.md', old_string: 'Instal the', new_string: 'Install the' },
        },
      ],
    },
  ];
  return turns[toolResults] ?? { text: 'Fixed the typo.' };
}

// Dollars per million tokens, as a project's modelPrices setting overrides the default table.
const prices = { 'openai-compatible:scripted-llm': { input: 1000, output: 2000, cacheRead: 100 } };

describe('cost limits', async () => {
  const directory = temporaryDirectory();
  const server = await startOpenAICompatibleServer({ apiKey: 'sk-budget', script: [typoPlan] });
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
      OPENAI_COMPATIBLE_API_KEY: 'sk-budget',
    },
  });
  await services.startWorker(
    createAgentRunner(services.config, database, { limits: { modelRetries: 0 }, secrets: services.secrets }),
  );

  async function projectWith(settings: Record<string, unknown>) {
    const repository = createRepository(join(directory.path, `repo-${Object.keys(settings).join('-')}`), {
      'mkdocs.yml': 'site_name: Acme\nnav:\n  - Home: index.md\n  - Quickstart: quickstart.md\n',
      'docs/index.md': '# Acme\n',
      'docs/quickstart.md': '# Quickstart\n\nInstal the CLI.\n',
    });
    const { project, key } = await buildProjectWithKey(database.pool, {
      project: { repository, codeHost: 'local', ref: 'main' },
    });
    await updateProjectSettings(database.pool, project.id, { modelPrices: prices, ...settings });
    return { projectId: project.id, headers: bearer(key) };
  }

  async function waitFor(projectId: string, headers: Record<string, string>, jobId: string) {
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const response = await services.app.inject({
        method: 'GET',
        url: `/v2/agent/${projectId}/job/${jobId}`,
        headers,
      });
      const job = response.json() as Record<string, unknown>;
      if (job.status !== 'active') return job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the job did not finish');
  }

  it('counts tokens and cached tokens per job, priced by the project table; a job token budget stops the run with failed', async () => {
    const { projectId, headers } = await projectWith({ maxTokensPerJob: 500 });
    const created = await services.app.inject({
      method: 'POST',
      url: `/v2/agent/${projectId}/job`,
      headers,
      payload: { prompt: 'Fix the typo in the quickstart' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const { id, usage } = created.json() as { id: string; usage: unknown };
    assert.deepEqual(usage, { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, estimatedCost: 0 });
    const calls = server.chatRequests.length;

    const job = await waitFor(projectId, headers, id);
    assert.equal(job.status, 'failed');
    assert.match(
      String(job.error),
      /The job's token budget of 500 tokens is used up \(560 used\); raise it with `quire project update \S+ --max-tokens-per-job <tokens>`/,
    );
    assert.equal(job.prLink, null);
    // Two calls: 500 input (200 of them read from the cache on the second) and 60 output tokens;
    // 300 × $1000 + 200 × $100 + 60 × $2000 per million = $0.44.
    assert.deepEqual(job.usage, {
      inputTokens: 500,
      outputTokens: 60,
      cachedInputTokens: 200,
      estimatedCost: 0.44,
    });
    assert.equal(server.chatRequests.length - calls, 2);

    // A follow-up is accepted, and its run stops before calling the model: the budget is spent.
    const followUp = await services.app.inject({
      method: 'POST',
      url: `/v2/agent/${projectId}/job/${id}/message`,
      headers,
      payload: { prompt: 'Try again' },
    });
    assert.equal(followUp.statusCode, 200, followUp.body);
    const again = await waitFor(projectId, headers, id);
    assert.equal(again.status, 'failed');
    assert.match(String(again.error), /token budget of 500 tokens is used up \(560 used\)/);
    assert.equal(server.chatRequests.length - calls, 2);
  });

  it('a monthly budget stops the run that reaches it, then refuses new runs with 429 and stores nothing', async () => {
    const { projectId, headers } = await projectWith({ monthlyBudgetUsd: 0.4 });
    const created = await services.app.inject({
      method: 'POST',
      url: `/v2/agent/${projectId}/job`,
      headers: { ...headers, 'idempotency-key': 'first-create' },
      payload: { prompt: 'Fix the typo in the quickstart' },
    });
    const { id } = created.json() as { id: string };
    const job = await waitFor(projectId, headers, id);
    assert.equal(job.status, 'failed');
    assert.match(
      String(job.error),
      /The project's monthly budget of \$0\.40 is used up \(\$0\.44 estimated this month\); raise it with `quire project update \S+ --monthly-budget <usd>`/,
    );

    const jobsBefore = await database.pool.query(
      'SELECT count(*)::int AS n FROM agent_jobs WHERE project_id = $1',
      [projectId],
    );
    const refused = await services.app.inject({
      method: 'POST',
      url: `/v2/agent/${projectId}/job`,
      headers,
      payload: { prompt: 'Another change' },
    });
    assert.equal(refused.statusCode, 429, refused.body);
    // A repeat of the first request still gets its first response (Idempotency-Key).
    const repeated = await services.app.inject({
      method: 'POST',
      url: `/v2/agent/${projectId}/job`,
      headers: { ...headers, 'idempotency-key': 'first-create' },
      payload: { prompt: 'Fix the typo in the quickstart' },
    });
    assert.equal(repeated.statusCode, 201, repeated.body);
    assert.equal((repeated.json() as { id: string }).id, id);
    assert.match((refused.json() as { error: string }).error, /past its monthly budget of \$0\.40/);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const followUp = await services.app.inject({
      method: 'POST',
      url: `/v2/agent/${projectId}/job/${id}/message`,
      headers,
      payload: { prompt: 'Try again' },
    });
    assert.equal(followUp.statusCode, 429, followUp.body);
    const jobsAfter = await database.pool.query(
      'SELECT count(*)::int AS n FROM agent_jobs WHERE project_id = $1',
      [projectId],
    );
    assert.deepEqual(jobsAfter.rows, jobsBefore.rows);
    const messages = await database.pool.query(
      'SELECT count(*)::int AS n FROM agent_job_messages WHERE job_id = $1',
      [id],
    );
    assert.equal(messages.rows[0].n, 1);

    // Raising the budget lets the project run again.
    await updateProjectSettings(database.pool, projectId, { monthlyBudgetUsd: 10 });
    const accepted = await services.app.inject({
      method: 'POST',
      url: `/v2/agent/${projectId}/job`,
      headers,
      payload: { prompt: 'Fix the typo in the quickstart' },
    });
    assert.equal(accepted.statusCode, 201, accepted.body);
    const finished = await waitFor(projectId, headers, (accepted.json() as { id: string }).id);
    assert.equal(finished.status, 'completed', JSON.stringify(finished));
  });
});
