import { type Command, InvalidArgumentError, Option } from 'commander';
import type { AutomationMode, AutomationTrigger } from '../automations/automation.ts';
import { automationModes } from '../automations/automation.ts';
import type { AutomationPatch, AutomationResource } from '../client/quire-client.ts';
import { type ClientOptions, clientFrom, withClientOptions } from './client-command.ts';
import { printJson, printTable } from './output.ts';

interface TriggerOptions {
  on?: 'merge' | 'schedule' | 'manual';
  repository?: string;
  branch?: string;
  paths?: string;
  cron?: string;
  timeZone?: string;
}

interface AutomationOptions extends ClientOptions, TriggerOptions {
  project: string;
  name?: string;
  prompt?: string;
  mode?: AutomationMode;
  maxTokens?: number;
  json?: boolean;
}

function parseTokens(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1000)
    throw new InvalidArgumentError('must be a whole number, at least 1000');
  return Number(text);
}

/** The trigger the options describe, or undefined when they name none. */
function triggerOf(options: TriggerOptions): AutomationTrigger | undefined {
  switch (options.on) {
    case undefined:
      return undefined;
    case 'manual':
      return { type: 'manual' };
    case 'schedule':
      if (!options.cron) throw new InvalidArgumentError('--on schedule needs --cron');
      return { type: 'schedule', cron: options.cron, timeZone: options.timeZone ?? 'UTC' };
    case 'merge': {
      if (!options.repository) throw new InvalidArgumentError('--on merge needs --repository');
      const paths = (options.paths ?? '')
        .split(',')
        .map((glob) => glob.trim())
        .filter(Boolean);
      return {
        type: 'merge',
        repository: options.repository,
        branch: options.branch ?? 'main',
        ...(paths.length > 0 ? { paths } : {}),
      };
    }
  }
}

function describeTrigger(trigger: AutomationTrigger): string {
  switch (trigger.type) {
    case 'manual':
      return 'manual';
    case 'schedule':
      return `schedule ${trigger.cron} (${trigger.timeZone})`;
    case 'merge':
      return `merge into ${trigger.repository}@${trigger.branch}${trigger.paths ? ` (${trigger.paths.join(', ')})` : ''}`;
  }
}

function printAutomation(automation: AutomationResource, json: boolean | undefined): void {
  if (json) {
    printJson(automation);
    return;
  }
  console.log(
    `${automation.id}  ${automation.name}  ${automation.enabled ? 'enabled' : 'disabled'}  ${describeTrigger(automation.trigger)}  ${automation.mode}`,
  );
}

function withAutomationOptions(command: Command): Command {
  return withClientOptions(
    command
      .addOption(new Option('--project <id>', 'the project').makeOptionMandatory())
      .addOption(new Option('--on <trigger>', 'what fires it').choices(['merge', 'schedule', 'manual']))
      .option('--repository <name>', 'merge: owner/name, a repository URL, or a path on the server')
      .option('--branch <branch>', 'merge: the branch changes are merged into (default main)')
      .option('--paths <globs>', 'merge: comma-separated globs on changed files, such as docs/**,src/cli/**')
      .option('--cron <expression>', 'schedule: a cron expression, such as "0 9 * * MON"')
      .option('--time-zone <zone>', 'schedule: an IANA time zone (default UTC)')
      .option('--prompt <text>', 'the instruction for the agent')
      .addOption(
        new Option('--mode <mode>', 'a pull request per change, or continue the open one').choices(
          automationModes,
        ),
      )
      .option('--max-tokens <n>', 'tokens one job may spend', parseTokens)
      .option('--json', 'print the automation as one JSON object'),
  );
}

export function registerAutomationCommands(program: Command): void {
  const automation = program
    .command('automation')
    .description('Automations: jobs started by merges, schedules or on demand (client commands)');

  withAutomationOptions(automation.command('create').description('Create an automation'))
    .requiredOption('--name <name>', 'a display name')
    .action(async (options: AutomationOptions) => {
      const trigger = triggerOf(options);
      if (trigger === undefined) throw new InvalidArgumentError('--on merge|schedule|manual is required');
      if (!options.prompt) throw new InvalidArgumentError('--prompt is required');
      const created = await clientFrom(options).createAutomation(options.project, {
        name: options.name ?? '',
        trigger,
        prompt: options.prompt,
        ...(options.mode ? { mode: options.mode } : {}),
        ...(options.maxTokens ? { limits: { maxTokensPerJob: options.maxTokens } } : {}),
      });
      printAutomation(created, options.json);
    });

  withAutomationOptions(automation.command('update').description('Change an automation').argument('<id>'))
    .option('--name <name>', 'a display name')
    .option('--enable', 'switch it on')
    .option('--disable', 'switch it off')
    .action(async (id: string, options: AutomationOptions & { enable?: boolean; disable?: boolean }) => {
      const trigger = triggerOf(options);
      const patch: AutomationPatch = {
        ...(options.name ? { name: options.name } : {}),
        ...(options.prompt ? { prompt: options.prompt } : {}),
        ...(options.mode ? { mode: options.mode } : {}),
        ...(trigger ? { trigger } : {}),
        ...(options.maxTokens ? { limits: { maxTokensPerJob: options.maxTokens } } : {}),
        ...(options.enable ? { enabled: true } : {}),
        ...(options.disable ? { enabled: false } : {}),
      };
      printAutomation(await clientFrom(options).updateAutomation(options.project, id, patch), options.json);
    });

  const simple = (name: string, description: string) =>
    withClientOptions(
      automation
        .command(name)
        .description(description)
        .addOption(new Option('--project <id>', 'the project').makeOptionMandatory())
        .option('--json', 'print one JSON object'),
    );

  simple('list', "List a project's automations").action(async (options: AutomationOptions) => {
    const { automations } = await clientFrom(options).listAutomations(options.project);
    if (options.json) return printJson({ automations });
    printTable(
      ['ID', 'NAME', 'STATE', 'TRIGGER', 'MODE'],
      automations.map((item) => [
        item.id,
        item.name,
        item.enabled ? 'enabled' : 'disabled',
        describeTrigger(item.trigger),
        item.mode,
      ]),
    );
  });

  simple('get', 'Show an automation')
    .argument('<id>')
    .action(async (id: string, options: AutomationOptions) => {
      printAutomation(await clientFrom(options).getAutomation(options.project, id), options.json);
    });

  simple('delete', 'Delete an automation (its jobs stay)')
    .argument('<id>')
    .action(async (id: string, options: AutomationOptions) => {
      await clientFrom(options).deleteAutomation(options.project, id);
      if (options.json) return printJson({ deleted: id });
      console.log(`Deleted automation ${id}`);
    });

  simple('trigger', 'Fire an automation now; prints the job it started')
    .argument('<id>')
    .option('--idempotency-key <key>', 'a repeat with the same key starts nothing new')
    .action(async (id: string, options: AutomationOptions & { idempotencyKey?: string }) => {
      const job = await clientFrom(options).triggerAutomation(options.project, id, {
        ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      });
      if (options.json) return printJson(job);
      console.log(`${job.id}  ${job.status}`);
    });

  simple('history', 'The jobs an automation started, newest first')
    .argument('<id>')
    .action(async (id: string, options: AutomationOptions) => {
      const { jobs } = await clientFrom(options).automationJobs(options.project, id);
      if (options.json) return printJson({ jobs });
      printTable(
        ['JOB', 'STATUS', 'CREATED', 'SOURCE', 'PULL REQUEST'],
        jobs.map((job) => [
          job.id,
          job.status,
          job.createdAt,
          job.trigger?.source.url ?? job.trigger?.type ?? '-',
          job.prLink ?? '-',
        ]),
      );
    });
}
