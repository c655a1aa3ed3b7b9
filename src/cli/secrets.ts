import type { Command } from 'commander';
import {
  addKeyToFile,
  announceSecretKey,
  createSecretBox,
  dropOldKeysFromFile,
  loadSecretKeys,
  resealAllSecrets,
} from '../secrets/index.ts';
import { withDatabase } from './database-command.ts';
import { printJson } from './output.ts';

/**
 * `quire secrets rotate`: seals every stored secret under a new key. With the key file, a new key
 * is put in front of it and announced to running servers (src/secrets/key-changes.ts), which read
 * the file again and seal under the new key from then on; the old keys stay in the file until
 * `--drop-old`, which reseals anything sealed under them meanwhile first. With `QUIRE_SECRET_KEY`,
 * set the new key there and the old one in `QUIRE_PREVIOUS_SECRET_KEYS`, run this, restart, then
 * unset the old one.
 */
export function registerSecretsCommands(program: Command): void {
  const secrets = program
    .command('secrets')
    .description('Stored secrets (code-host tokens, keys, webhook secrets)');
  secrets
    .command('rotate')
    .description(
      'Reseal every stored secret under a new key (a new key in the key file, or QUIRE_SECRET_KEY)',
    )
    .option('--drop-old', 'reseal under the current key, then remove the older keys from the key file')
    .option('--json', 'print {keyId, projects, webhooks} as one JSON object')
    .action(async (options: { dropOld?: boolean; json?: boolean }) => {
      const outcome = await withDatabase(async (database, config) => {
        const usesKeyFile = config.secretKey === null;
        const keys =
          usesKeyFile && !options.dropOld ? addKeyToFile(config.dataDirectory) : loadSecretKeys(config);
        const box = createSecretBox(keys);
        // Running servers switch to the new key before the reseal pass, so that it misses nothing
        // they seal; what they sealed just before stays readable under the old key until --drop-old.
        await announceSecretKey(database.pool, box.keyId);
        const resealed = await resealAllSecrets(database.pool, box);
        if (usesKeyFile && options.dropOld) dropOldKeysFromFile(config.dataDirectory);
        return { keyId: box.keyId, ...resealed };
      });
      if (options.json) return printJson(outcome);
      console.log(
        `Secrets are sealed under key ${outcome.keyId}: ${outcome.projects} project(s) and ${outcome.webhooks} webhook(s) resealed.`,
      );
    });
}
