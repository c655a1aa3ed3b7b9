import type { Command } from 'commander';
import { createQuireClient, type QuireClient } from '../client/quire-client.ts';
import { loadConfig } from '../config.ts';

export interface ClientOptions {
  url?: string;
  key?: string;
}

/** Adds `--url` and `--key` to a command that talks to a running server. */
export function withClientOptions(command: Command): Command {
  return command
    .option('--url <url>', 'the Quire server (default: QUIRE_URL, or QUIRE_PUBLIC_URL)')
    .option('--key <key>', 'the API key (default: QUIRE_API_KEY)');
}

export function clientFrom(options: ClientOptions): QuireClient {
  const config = loadConfig();
  const apiKey = options.key ?? config.clientApiKey;
  if (!apiKey) throw new Error('No API key: pass --key or set QUIRE_API_KEY');
  return createQuireClient({ baseUrl: options.url ?? config.clientUrl, apiKey });
}
