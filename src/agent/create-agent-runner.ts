import type { AgentRunner } from '../agent-jobs/agent-runner.ts';
import { createCodeHostResolver } from '../code-hosts/code-host-for-project.ts';
import { createPostgresReviewStore } from '../code-hosts/local/review-store-postgres.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../secrets/index.ts';
import { createGitWorkspace } from '../workspace/git-workspace.ts';
import { type AgentLimits, defaultAgentLimits } from './agent-limits.ts';
import { createDocsAgentRunner } from './docs-agent-runner.ts';
import { createLanguageModel } from './model/create-language-model.ts';

/**
 * The agent as the composition root builds it: mirrors and worktrees under the data directory,
 * code hosts from project settings, reviews of the local code host in PostgreSQL.
 *
 *   const agentRunner = createAgentRunner(config, database, { secrets });
 */
export function createAgentRunner(
  config: Readonly<Config>,
  database: Database,
  options: { secrets: SecretBox; limits?: Partial<AgentLimits> },
): AgentRunner {
  return createDocsAgentRunner({
    workspace: createGitWorkspace({ dataDirectory: config.dataDirectory }),
    codeHostFor: createCodeHostResolver({
      publicUrl: config.publicUrl,
      reviews: createPostgresReviewStore(database.pool),
      secrets: options.secrets,
    }),
    createModel: (name) => createLanguageModel(name, config),
    limits: { ...defaultAgentLimits, ...options.limits },
    author: { name: 'Quire', email: 'quire@localhost' },
  });
}
