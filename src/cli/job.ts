import { type Command, InvalidArgumentError, Option } from 'commander';
import { type JobStatus, jobStatuses } from '../agent-jobs/job-status.ts';
import type { AgentJobResource, JobEventResource } from '../client/quire-client.ts';
import { type ClientOptions, clientFrom, withClientOptions } from './client-command.ts';
import { printJson, printTable } from './output.ts';

interface JobOptions extends ClientOptions {
  project: string;
  json?: boolean;
  wait?: boolean;
  timeout: number;
}

function parseSeconds(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new InvalidArgumentError('must be a whole number of seconds');
  return Number(text);
}

/** One line per step, so a person can follow the agent. */
function describeEvent(event: JobEventResource): string {
  const data = event.data;
  const detail =
    typeof data.prompt === 'string'
      ? data.prompt
      : typeof data.tool === 'string'
        ? `${data.tool} ${JSON.stringify(data.input ?? {})}`
        : typeof data.to === 'string'
          ? `${data.from ?? ''} -> ${data.to}${data.error ? ` (${data.error})` : ''}`
          : typeof data.summary === 'string'
            ? data.summary
            : typeof data.message === 'string'
              ? data.message
              : '';
  const oneLine = detail.replace(/\s+/g, ' ').trim();
  return `  ${event.type}${oneLine ? `: ${oneLine.length > 160 ? `${oneLine.slice(0, 157)}...` : oneLine}` : ''}`;
}

function printJob(job: AgentJobResource, json: boolean | undefined): void {
  if (json) {
    printJson(job);
    return;
  }
  console.log(
    `${job.id}  ${job.status}${job.prLink ? `  ${job.prLink}` : ''}${job.error ? `\n  error: ${job.error}` : ''}`,
  );
}

async function waitAndReport(options: JobOptions, job: AgentJobResource): Promise<void> {
  const client = clientFrom(options);
  if (!options.json) console.log(`Waiting for ${job.id} (Ctrl-C stops waiting; the job goes on)...`);
  const done = await client.waitForJob(options.project, job.id, {
    timeoutMilliseconds: options.timeout * 1000,
    ...(options.json ? {} : { onEvent: (event) => console.log(describeEvent(event)) }),
  });
  if (options.json) printJson(done);
  else {
    console.log(`Job ${done.id} is ${done.status}.`);
    if (done.prLink) console.log(`Pull request: ${done.prLink}`);
    else if (done.status === 'completed') console.log('No file changed, so there is no pull request.');
    if (done.error) console.log(`Error: ${done.error}`);
  }
  if (done.status === 'failed') process.exitCode = 1;
}

export function registerJobCommands(program: Command): void {
  const job = program.command('job').description('Agent jobs on a running server (client commands)');
  const projectOption = () => new Option('--project <id>', 'the project').makeOptionMandatory();
  const timeoutOption = () =>
    new Option('--timeout <seconds>', 'how long --wait waits').argParser(parseSeconds).default(1800);

  withClientOptions(
    job
      .command('create')
      .description('Create an agent job from an instruction')
      .argument('<prompt>', 'the instruction for the agent')
      .addOption(projectOption())
      .option('--wait', 'show progress until the job is completed, archived or failed')
      .addOption(timeoutOption())
      .option('--idempotency-key <key>', 'a repeat with the same key creates nothing new')
      .option('--json', 'print the job as one JSON object'),
  ).action(async (prompt: string, options: JobOptions & { idempotencyKey?: string }) => {
    const created = await clientFrom(options).createJob(options.project, prompt, {
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    });
    if (options.wait) return waitAndReport(options, created);
    printJob(created, options.json);
  });

  withClientOptions(
    job
      .command('message')
      .description('Send a follow-up instruction to a job')
      .argument('<job-id>', 'the job')
      .argument('<prompt>', 'the follow-up instruction')
      .addOption(projectOption())
      .option('--wait', 'show progress until the job is completed, archived or failed')
      .addOption(timeoutOption())
      .option('--json', 'print the job as one JSON object'),
  ).action(async (jobId: string, prompt: string, options: JobOptions) => {
    const updated = await clientFrom(options).sendMessage(options.project, jobId, prompt);
    if (options.wait) return waitAndReport(options, updated);
    printJob(updated, options.json);
  });

  withClientOptions(
    job
      .command('get')
      .description('Show a job')
      .argument('<job-id>', 'the job')
      .addOption(projectOption())
      .option('--wait', 'wait until the job is completed, archived or failed')
      .addOption(timeoutOption())
      .option('--json', 'print the job as one JSON object'),
  ).action(async (jobId: string, options: JobOptions) => {
    const found = await clientFrom(options).getJob(options.project, jobId);
    if (options.wait) return waitAndReport(options, found);
    printJob(found, options.json);
  });

  withClientOptions(
    job
      .command('list')
      .description("List a project's jobs, newest first")
      .addOption(projectOption())
      .addOption(new Option('--status <status>', 'only jobs in this state').choices(jobStatuses))
      .option('--json', 'print {"jobs": [...], "nextCursor": ...}'),
  ).action(async (options: JobOptions & { status?: JobStatus }) => {
    const page = await clientFrom(options).listJobs(options.project, {
      limit: 100,
      ...(options.status ? { status: options.status } : {}),
    });
    if (options.json) return printJson(page);
    printTable(
      ['ID', 'STATUS', 'CREATED', 'PULL REQUEST'],
      page.jobs.map((item) => [item.id, item.status, item.createdAt, item.prLink ?? '-']),
    );
  });

  withClientOptions(
    job
      .command('archive')
      .description('Archive a job; stops its running work')
      .argument('<job-id>', 'the job')
      .addOption(projectOption())
      .option('--json', 'print the job as one JSON object'),
  ).action(async (jobId: string, options: JobOptions) => {
    printJob(await clientFrom(options).archiveJob(options.project, jobId), options.json);
  });
}
