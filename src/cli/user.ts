import type { Command } from 'commander';
import { createUser } from '../accounts/create-user.ts';
import { generatePassword, hashPassword, passwordProblem } from '../accounts/password.ts';
import { clearSignInFailures } from '../accounts/sign-in-failures.ts';
import { listUsers, normalizeEmail, updateUserPassword } from '../accounts/user-store.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { withDatabase } from './database-command.ts';
import { printJson, printTable } from './output.ts';

/**
 * The password piped to standard input (its first line), or null when there is none: a terminal,
 * or empty input, means "generate one".
 */
async function readPasswordFromStandardInput(): Promise<string | null> {
  if (process.stdin.isTTY) return null;
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  const firstLine = text.split(/\r?\n/)[0] ?? '';
  return firstLine === '' ? null : firstLine;
}

export function registerUserCommands(program: Command): void {
  const user = program
    .command('user')
    .description('Dashboard users (everyone signed in manages every project)');

  user
    .command('create')
    .description(
      'Create a dashboard user. The password is read from standard input (first line); without one, a password is generated and printed once',
    )
    .requiredOption('--email <email>', 'the email to sign in with')
    .option('--json', 'print {"id", "email", "password"?} as one JSON object')
    .action(async (options: { email: string; json?: boolean }) => {
      const piped = await readPasswordFromStandardInput();
      const password = piped ?? generatePassword();
      const created = await withDatabase((database) => createUser(database.pool, options.email, password));
      if (options.json) {
        return printJson({ id: created.id, email: created.email, ...(piped === null ? { password } : {}) });
      }
      console.log(`Created dashboard user ${created.email}.`);
      if (piped === null) {
        console.log(`Generated password (shown only this once; store it now):\n\n  ${password}\n`);
      }
    });

  user
    .command('list')
    .description('List dashboard users')
    .option('--json', 'print {"users": [...]}')
    .action(async (options: { json?: boolean }) => {
      const users = await withDatabase((database) => listUsers(database.pool));
      const shown = users.map((item) => ({
        id: item.id,
        email: item.email,
        createdAt: item.createdAt.toISOString(),
        lastSignInAt: item.lastSignInAt?.toISOString() ?? null,
      }));
      if (options.json) return printJson({ users: shown });
      printTable(
        ['ID', 'EMAIL', 'CREATED', 'LAST SIGN-IN'],
        shown.map((item) => [item.id, item.email, item.createdAt, item.lastSignInAt ?? '-']),
      );
    });

  user
    .command('set-password')
    .description(
      "Replace a user's password (read from standard input, or generated and printed once); also lifts a lockout",
    )
    .requiredOption('--email <email>', 'the user')
    .action(async (options: { email: string }) => {
      const piped = await readPasswordFromStandardInput();
      const password = piped ?? generatePassword();
      const problem = passwordProblem(password);
      if (problem !== null) throw new InvalidInputError(problem);
      await withDatabase(async (database) => {
        const updated = await updateUserPassword(database.pool, options.email, await hashPassword(password));
        if (!updated) throw new NotFoundError(`No dashboard user with the email ${options.email}`);
        await clearSignInFailures(database.pool, normalizeEmail(options.email));
      });
      console.log(`Password replaced for ${normalizeEmail(options.email)}.`);
      if (piped === null) console.log(`New password (shown only this once):\n\n  ${password}\n`);
    });
}
