import type { Command } from 'commander';
import { withDatabase } from './database-command.ts';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations (the server also does this at start)')
    .action(async () => {
      // withDatabase migrates; this command only reports.
      await withDatabase(async () => {
        console.log('Database migrations are applied.');
      });
    });
}
