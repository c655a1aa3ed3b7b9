import { type Command, InvalidArgumentError } from 'commander';
import { parseScopes, presentApiKey, type Scope } from '../auth/api-key.ts';
import { insertApiKey, listApiKeys, revokeApiKey } from '../auth/api-key-store.ts';
import { parseAddressList } from '../config.ts';
import { NotFoundError } from '../errors.ts';
import { findProject } from '../projects/project-store.ts';
import { withDatabase } from './database-command.ts';
import { printJson, printTable } from './output.ts';

function parseScopeList(text: string): Scope[] {
  const scopes = parseScopes(text);
  if (scopes === null)
    throw new InvalidArgumentError('must be a comma-separated list of read, write, ingest');
  return scopes;
}

function parseExpiry(text: string): Date {
  const date = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError('must be an ISO 8601 date or date-time');
  }
  return date;
}

function parseAllowFrom(text: string): string[] {
  const addresses = parseAddressList(text);
  if (addresses === null || addresses.length === 0) {
    throw new InvalidArgumentError(
      'must be IP addresses or CIDRs separated by commas (203.0.113.0/24,2001:db8::1)',
    );
  }
  return addresses;
}

export function registerKeyCommands(program: Command): void {
  const key = program.command('key').description('Manage API keys');

  key
    .command('create')
    .description('Create an API key for a project; its secret is printed once')
    .requiredOption('--project <id>', 'the project the key belongs to')
    .option('--scopes <scopes>', 'comma-separated: read, write, ingest', parseScopeList, [
      'read',
      'write',
    ] as Scope[])
    .option('--name <name>', 'a name to recognise the key by', 'cli')
    .option('--expires <date>', 'when the key stops working (ISO 8601)', parseExpiry)
    .option(
      '--allow-from <addresses>',
      'use only from these IP addresses or CIDRs (comma-separated)',
      parseAllowFrom,
    )
    .option('--json', 'print the key, with its secret, as one JSON object')
    .action(
      async (options: {
        project: string;
        scopes: Scope[];
        name: string;
        expires?: Date;
        allowFrom?: string[];
        json?: boolean;
      }) => {
        const { key: created, secret } = await withDatabase(async (database) => {
          if ((await findProject(database.pool, options.project)) === null) {
            throw new NotFoundError(`No project with id ${options.project}`);
          }
          return insertApiKey(database.pool, {
            projectId: options.project,
            name: options.name,
            scopes: options.scopes,
            expiresAt: options.expires ?? null,
            allowedAddresses: options.allowFrom ?? null,
          });
        });
        if (options.json) return printJson({ ...presentApiKey(created), key: secret });
        console.log(
          `Created key ${created.id} (${created.scopes.join(', ')}). It is shown only this once:\n\n  ${secret}\n`,
        );
      },
    );

  key
    .command('list')
    .description("List a project's API keys (never their secrets)")
    .requiredOption('--project <id>', 'the project')
    .option('--json', 'print {"keys": [...]}')
    .action(async (options: { project: string; json?: boolean }) => {
      const keys = await withDatabase((database) => listApiKeys(database.pool, options.project));
      if (options.json) return printJson({ keys: keys.map(presentApiKey) });
      printTable(
        ['ID', 'NAME', 'SCOPES', 'KEY', 'CREATED', 'LAST USED', 'STATUS'],
        keys.map((item) => [
          item.id,
          item.name,
          item.scopes.join(','),
          `quire_…${item.lastFour}`,
          item.createdAt.toISOString(),
          item.lastUsedAt?.toISOString() ?? '-',
          item.revokedAt ? 'revoked' : item.expiresAt && item.expiresAt <= new Date() ? 'expired' : 'active',
        ]),
      );
    });

  key
    .command('revoke')
    .description('Revoke an API key; it stops working on the next request')
    .argument('<key-id>', 'the key id (key_...)')
    .option('--json', 'print the revoked key as one JSON object')
    .action(async (keyId: string, options: { json?: boolean }) => {
      const revoked = await withDatabase((database) => revokeApiKey(database.pool, keyId));
      if (revoked === null) throw new NotFoundError(`No API key with id ${keyId}`);
      if (options.json) return printJson(presentApiKey(revoked));
      console.log(`Revoked key ${revoked.id}`);
    });
}
