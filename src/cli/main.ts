/**
 * The `quire` command line. Each command group lives in its own file; this one wires them and
 * turns failures into one line on stderr and a non-zero exit code.
 */
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.ts';
import { errorMessage, isQuireError } from '../errors.ts';

type Register = (program: Command) => void;

/**
 * Each command group, loaded only when it is the one asked for: a command loads its own code, not
 * the whole service's (`quire --version` took 2.2 s, nearly all of it loading modules). `--version`
 * loads none; help and an unknown command load them all. The order is the help's.
 */
const commandGroups: Record<string, () => Promise<Register>> = {
  serve: async () => (await import('./serve.ts')).registerServeCommand,
  migrate: async () => (await import('./migrate.ts')).registerMigrateCommand,
  project: async () => (await import('./project.ts')).registerProjectCommands,
  key: async () => (await import('./key.ts')).registerKeyCommands,
  user: async () => (await import('./user.ts')).registerUserCommands,
  webhook: async () => (await import('./webhook.ts')).registerWebhookCommands,
  secrets: async () => (await import('./secrets.ts')).registerSecretsCommands,
  job: async () => (await import('./job.ts')).registerJobCommands,
  automation: async () => (await import('./automation.ts')).registerAutomationCommands,
  analytics: async () => (await import('./analytics.ts')).registerAnalyticsCommands,
};

async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('quire')
    .description('Quire: AI agent jobs for documentation repositories, and page-view analytics')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  const first = argv.find((argument) => !argument.startsWith('-'));
  const versionOnly =
    first === undefined &&
    argv.some((argument) => argument === '-V' || argument === '--version') &&
    !argv.some((argument) => argument === '-h' || argument === '--help');
  const groups = versionOnly
    ? []
    : first !== undefined && Object.hasOwn(commandGroups, first)
      ? [first]
      : Object.keys(commandGroups);
  for (const register of await Promise.all(groups.map((group) => commandGroups[group]!()))) register(program);
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error: unknown) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage errors were already printed by commander.
      process.exitCode = error.exitCode;
      return;
    }
    if (error instanceof ConfigError) {
      console.error(`quire: invalid configuration: ${error.message}`);
    } else if (isQuireError(error)) {
      console.error(`quire: ${error.message}`);
    } else {
      console.error(`quire: ${errorMessage(error)}`);
    }
    process.exitCode = 1;
  }
}
