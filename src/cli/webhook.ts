import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { NotFoundError } from '../errors.ts';
import { findProject } from '../projects/project-store.ts';
import { createSecretBox, loadSecretKeys } from '../secrets/index.ts';
import {
  deleteWebhook,
  findWebhook,
  generateWebhookSecret,
  upsertWebhook,
} from '../webhooks/webhook-store.ts';
import { withDatabase } from './database-command.ts';
import { printJson } from './output.ts';

function parseWebhookUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError('must be an http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError('must be an http or https URL');
  if (url.username || url.password) throw new InvalidArgumentError('must not contain credentials');
  return url.toString();
}

export function registerWebhookCommands(program: Command): void {
  const webhook = program.command('webhook').description("A project's webhook for agent job events");

  webhook
    .command('set')
    .description(
      'Send agent_job.completed, agent_job.failed and agent_job.archived to a URL (replaces any previous one)',
    )
    .requiredOption('--project <id>', 'the project')
    .requiredOption('--url <url>', 'where events are POSTed', parseWebhookUrl)
    .option('--secret <secret>', 'the signing secret (default: a new random one, printed once)')
    .option('--json', 'print the webhook, with its secret, as one JSON object')
    .action(async (options: { project: string; url: string; secret?: string; json?: boolean }) => {
      const secret = options.secret ?? generateWebhookSecret();
      const saved = await withDatabase(async (database, config) => {
        if ((await findProject(database.pool, options.project)) === null) {
          throw new NotFoundError(`No project with id ${options.project}`);
        }
        const sealed = createSecretBox(loadSecretKeys(config)).seal(secret);
        return upsertWebhook(database.pool, options.project, options.url, sealed);
      });
      if (options.json) return printJson({ projectId: saved.projectId, url: saved.url, secret });
      console.log(`Webhook set to ${saved.url}. Signing secret (shown only now):\n\n  ${secret}\n`);
      console.log(
        'Each delivery carries Quire-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>">.',
      );
    });

  webhook
    .command('show')
    .description("Show a project's webhook URL (never its secret)")
    .requiredOption('--project <id>', 'the project')
    .option('--json', 'print {"url": ...} as one JSON object')
    .action(async (options: { project: string; json?: boolean }) => {
      const found = await withDatabase((database) => findWebhook(database.pool, options.project));
      if (options.json) return printJson({ projectId: options.project, url: found?.url ?? null });
      console.log(found ? found.url : 'No webhook is set.');
    });

  webhook
    .command('remove')
    .description("Remove a project's webhook")
    .requiredOption('--project <id>', 'the project')
    .action(async (options: { project: string }) => {
      const removed = await withDatabase((database) => deleteWebhook(database.pool, options.project));
      console.log(removed ? 'Webhook removed.' : 'No webhook was set.');
    });
}
