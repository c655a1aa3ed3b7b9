/**
 * The `quire` command line. Each command group lives in its own file; this one wires them and
 * turns failures into one line on stderr and a non-zero exit code.
 */
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.ts';
import { errorMessage, isQuireError } from '../errors.ts';
import { registerAnalyticsCommands } from './analytics.ts';
import { registerAutomationCommands } from './automation.ts';
import { registerJobCommands } from './job.ts';
import { registerKeyCommands } from './key.ts';
import { registerMigrateCommand } from './migrate.ts';
import { registerProjectCommands } from './project.ts';
import { registerSecretsCommands } from './secrets.ts';
import { registerServeCommand } from './serve.ts';
import { registerUserCommands } from './user.ts';
import { registerWebhookCommands } from './webhook.ts';

function buildProgram(): Command {
  const program = new Command('quire')
    .description('Quire: AI agent jobs for documentation repositories, and page-view analytics')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  registerServeCommand(program);
  registerMigrateCommand(program);
  registerProjectCommands(program);
  registerKeyCommands(program);
  registerUserCommands(program);
  registerWebhookCommands(program);
  registerSecretsCommands(program);
  registerJobCommands(program);
  registerAutomationCommands(program);
  registerAnalyticsCommands(program);
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  const program = buildProgram();
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
