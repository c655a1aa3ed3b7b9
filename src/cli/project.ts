import fs from 'node:fs/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type CodeHostKind, codeHostKinds } from '../code-hosts/code-host.ts';
import { parseModelId } from '../config.ts';
import { NotFoundError } from '../errors.ts';
import { presentProject } from '../projects/project.ts';
import {
  insertProject,
  listProjects,
  updateProject,
  updateProjectSettings,
} from '../projects/project-store.ts';
import { createSecretBox, loadSecretKeys, sealSettingsPatch } from '../secrets/index.ts';
import { withDatabase } from './database-command.ts';
import { printJson, printTable } from './output.ts';
import { readStandardInput } from './standard-input.ts';

function parseName(text: string): string {
  const name = text.trim();
  if (name.length < 1 || name.length > 200) throw new InvalidArgumentError('must be 1 to 200 characters');
  return name;
}

function parseRef(text: string): string {
  // A conservative subset of git's ref rules: no spaces, no "..", no leading "-".
  if (!/^[A-Za-z0-9._/-]{1,200}$/.test(text) || text.startsWith('-') || text.includes('..')) {
    throw new InvalidArgumentError('must be a branch name such as main');
  }
  return text;
}

function parseModel(text: string): string {
  if (text !== '' && parseModelId(text) === null) {
    throw new InvalidArgumentError(
      'must be <provider>:<model-id> with provider anthropic, openai or openai-compatible, or "" to use QUIRE_MODEL',
    );
  }
  return text;
}

function parsePositiveInteger(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new InvalidArgumentError('must be a positive whole number');
  return Number(text);
}

interface CredentialOptions {
  githubToken?: string;
  githubAppId?: string;
  githubPrivateKeyFile?: string;
  githubInstallationId?: string;
  githubApiUrl?: string;
  gitlabToken?: string;
  gitlabHost?: string;
}

/** Code-host credentials for `settings.github` / `settings.gitlab`; secrets may come from stdin. */
async function readCredentials(options: CredentialOptions) {
  const github: Record<string, unknown> = {};
  const gitlab: Record<string, unknown> = {};
  if (options.githubToken !== undefined) {
    github.token = options.githubToken === '-' ? await readStandardInput() : options.githubToken;
  }
  if (options.githubAppId !== undefined) github.appId = options.githubAppId;
  if (options.githubPrivateKeyFile !== undefined) {
    github.privateKey = await fs.readFile(options.githubPrivateKeyFile, 'utf8');
  }
  if (options.githubInstallationId !== undefined)
    github.installationId = Number(options.githubInstallationId);
  if (options.githubApiUrl !== undefined) github.apiBaseUrl = options.githubApiUrl;
  if (options.gitlabToken !== undefined) {
    gitlab.token = options.gitlabToken === '-' ? await readStandardInput() : options.gitlabToken;
  }
  if (options.gitlabHost !== undefined) gitlab.host = options.gitlabHost;
  return { github, gitlab };
}

export function registerProjectCommands(program: Command): void {
  const project = program.command('project').description('Manage projects');

  project
    .command('create')
    .description('Create a project')
    .requiredOption('--name <name>', 'a display name', parseName)
    .option('--repository <url-or-path>', 'the documentation repository: a URL, or a path on this machine')
    .option('--ref <ref>', 'the base branch jobs start from', parseRef, 'main')
    .addOption(
      new Option('--code-host <kind>', 'where pull requests are opened')
        .choices(codeHostKinds)
        .default('local'),
    )
    .option('--json', 'print the project as one JSON object')
    .action(
      async (options: {
        name: string;
        repository?: string;
        ref: string;
        codeHost: CodeHostKind;
        json?: boolean;
      }) => {
        const created = await withDatabase((database) =>
          insertProject(database.pool, {
            name: options.name,
            repository: options.repository ?? null,
            ref: options.ref,
            codeHost: options.codeHost,
          }),
        );
        if (options.json) return printJson(presentProject(created));
        console.log(`Created project ${created.id} (${created.name})`);
      },
    );

  project
    .command('list')
    .description('List projects')
    .option('--json', 'print {"projects": [...]}')
    .action(async (options: { json?: boolean }) => {
      const projects = await withDatabase((database) => listProjects(database.pool));
      if (options.json) return printJson({ projects: projects.map(presentProject) });
      printTable(
        ['ID', 'NAME', 'CODE HOST', 'REF', 'REPOSITORY'],
        projects.map((item) => [item.id, item.name, item.codeHost, item.ref, item.repository ?? '-']),
      );
    });

  project
    .command('update')
    .description("Change a project's settings")
    .argument('<project-id>', 'the project')
    .option('--name <name>', 'a display name', parseName)
    .option('--repository <url-or-path>', 'the documentation repository ("" removes it)')
    .option('--ref <ref>', 'the base branch jobs start from', parseRef)
    .addOption(new Option('--code-host <kind>', 'where pull requests are opened').choices(codeHostKinds))
    .option(
      '--model <provider:model-id>',
      'the model for this project\'s jobs ("" uses QUIRE_MODEL)',
      parseModel,
    )
    .option(
      '--agent-rate-limit <per-hour>',
      'agent job creates and follow-ups per hour',
      parsePositiveInteger,
    )
    .option(
      '--github-token <token>',
      'GitHub token with contents and pull-request write access ("-": read it from standard input)',
    )
    .option('--github-app-id <id>', 'GitHub App id (instead of a token)')
    .option('--github-private-key-file <path>', "the GitHub App's private key (PEM file)")
    .option('--github-installation-id <id>', "the GitHub App's installation (default: looked up)")
    .option(
      '--github-api-url <url>',
      'GitHub Enterprise API base URL, such as https://ghe.example.com/api/v3',
    )
    .option(
      '--gitlab-token <token>',
      'GitLab token with api and write_repository scopes ("-": read it from standard input)',
    )
    .option('--gitlab-host <url>', 'GitLab base URL (default: the repository URL origin)')
    .option(
      '--hook-secret <secret>',
      'the secret code-host webhooks (POST /v1/hooks/ID/github|gitlab) are verified with ("-": read it from standard input, "" removes it)',
    )
    .option('--json', 'print the project as one JSON object')
    .action(
      async (
        projectId: string,
        options: {
          name?: string;
          repository?: string;
          ref?: string;
          codeHost?: CodeHostKind;
          model?: string;
          agentRateLimit?: number;
          hookSecret?: string;
          json?: boolean;
        } & CredentialOptions,
      ) => {
        const credentials = await readCredentials(options);
        const hookSecret = options.hookSecret === '-' ? await readStandardInput() : options.hookSecret;
        const updated = await withDatabase(async (database, config) => {
          const changed = await updateProject(database.pool, projectId, {
            ...(options.name === undefined ? {} : { name: options.name }),
            ...(options.repository === undefined ? {} : { repository: options.repository || null }),
            ...(options.ref === undefined ? {} : { ref: options.ref }),
            ...(options.codeHost === undefined ? {} : { codeHost: options.codeHost }),
          });
          if (changed === null) throw new NotFoundError(`No project with id ${projectId}`);
          const settings: Record<string, unknown> = {};
          if (options.model !== undefined) settings.model = options.model || null;
          if (options.agentRateLimit !== undefined) settings.agentRateLimitPerHour = options.agentRateLimit;
          // Sealed like the code-host tokens beside it (below); never printed.
          if (hookSecret !== undefined) settings.hookSecret = hookSecret || null;
          for (const host of ['github', 'gitlab'] as const) {
            if (Object.keys(credentials[host]).length > 0) {
              const existing = changed.settings[host];
              settings[host] = {
                ...(typeof existing === 'object' && existing !== null ? existing : {}),
                ...credentials[host],
              };
            }
          }
          if (Object.keys(settings).length === 0) return changed;
          // Credentials are sealed before they are stored (src/secrets/).
          const secrets = createSecretBox(loadSecretKeys(config));
          return (
            (await updateProjectSettings(database.pool, projectId, sealSettingsPatch(settings, secrets))) ??
            changed
          );
        });
        if (options.json) return printJson(presentProject(updated));
        console.log(`Updated project ${updated.id} (${updated.name})`);
      },
    );
}
