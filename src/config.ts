/**
 * The only reader of `process.env`. `loadConfig` validates every variable DESIGN.md lists and
 * returns a frozen object; a bad value throws `ConfigError` naming the variable, and the CLI turns
 * that into one line on stderr and exit code 1.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { parseSecretKey } from './secrets/secret-keys.ts';

export type Role = 'all' | 'api' | 'worker';
export const roles: readonly Role[] = ['all', 'api', 'worker'];

export type ModelProvider = 'anthropic' | 'openai' | 'openai-compatible';
const modelProviders: readonly ModelProvider[] = ['anthropic', 'openai', 'openai-compatible'];

export interface ModelId {
  provider: ModelProvider;
  modelId: string;
}

export interface Config {
  port: number;
  host: string;
  dataDirectory: string;
  /** External PostgreSQL; null means the embedded one under `dataDirectory`. */
  databaseUrl: string | null;
  /**
   * How long a dead embedded postmaster is restarted, with backoff, before `/healthz` fails so that
   * the process supervisor restarts Quire (src/db/embedded-postgres.ts).
   */
  embeddedRecoverySeconds: number;
  publicUrl: string;
  /** The default model, `<provider>:<model-id>`; null: agent jobs fail fast saying what to set. */
  model: string | null;
  anthropicApiKey: string | null;
  openaiApiKey: string | null;
  openaiCompatibleBaseUrl: string | null;
  openaiCompatibleApiKey: string | null;
  role: Role;
  /** Wall-clock limit of one agent run. */
  jobTimeoutSeconds: number;
  /** Agent runs one worker process carries out at once. */
  workerConcurrency: number;
  /** Agent job creates plus follow-ups per project per hour (a project setting may override). */
  agentRateLimitPerHour: number;
  /** Authenticated reads per project per minute, counted in each API process. */
  readRateLimitPerMinute: number;
  /** Deliver webhooks to loopback and private addresses (off: such targets are refused). */
  webhookAllowPrivate: boolean;
  /** For client commands (`quire job ...`): the server to talk to, and the key to use. */
  clientUrl: string;
  clientApiKey: string | null;
  /** Months of raw page views kept (rollups are kept for ever). */
  analyticsRetentionMonths: number;
  /** Decompressed bytes of drained bodies read at once, in MiB; a batch beyond waits, then gets a 429. */
  drainMemoryMegabytes: number;
  /** Bytes of request bodies held at once, in MiB; a request beyond waits, then gets a 429 (http/body-memory.ts). */
  requestMemoryMegabytes: number;
  /** Client connections the HTTP listener holds at once; one beyond is closed as it arrives. */
  maxConnections: number;
  /**
   * Proxies (addresses or CIDRs) whose `X-Forwarded-For` is believed for the client's address
   * (`request.ip`); empty: the socket's peer is the client.
   */
  trustedProxies: readonly string[];
  /**
   * The key that seals stored secrets (`QUIRE_SECRET_KEY`, 32 bytes as hex or base64); null: the
   * key file in the data directory (src/secrets/secret-keys.ts).
   */
  secretKey: string | null;
  /** Keys `QUIRE_SECRET_KEY` replaced, still accepted to open secrets until they are resealed. */
  previousSecretKeys: readonly string[];
}

export class ConfigError extends Error {
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

/**
 * Parses `<provider>:<model-id>`, such as `anthropic:claude-sonnet-4-5` or `openai-compatible:llama3`.
 * Returns null when the text is malformed.
 */
export function parseModelId(text: string): ModelId | null {
  const separator = text.indexOf(':');
  if (separator <= 0) return null;
  const provider = text.slice(0, separator);
  const modelId = text.slice(separator + 1).trim();
  if (!modelProviders.includes(provider as ModelProvider) || modelId === '') return null;
  return { provider: provider as ModelProvider, modelId };
}

type Environment = Record<string, string | undefined>;

function optional(environment: Environment, name: string): string | null {
  const value = environment[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function parsePort(environment: Environment, name: string, fallback: number): number {
  const text = optional(environment, name);
  if (text === null) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > 65535) {
    throw new ConfigError(name, `must be a port number from 0 to 65535, got "${text}"`);
  }
  return Number(text);
}

function parseInteger(
  environment: Environment,
  name: string,
  fallback: number,
  minimum: number,
  maximum: number,
): number {
  const text = optional(environment, name);
  if (text === null) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < minimum || Number(text) > maximum) {
    throw new ConfigError(name, `must be an integer from ${minimum} to ${maximum}, got "${text}"`);
  }
  return Number(text);
}

function parseBoolean(environment: Environment, name: string): boolean {
  const text = optional(environment, name);
  if (text === null) return false;
  if (['true', '1', 'yes'].includes(text.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(text.toLowerCase())) return false;
  throw new ConfigError(name, `must be true or false, got "${text}"`);
}

function parseUrl(environment: Environment, name: string, protocols: string[]): string | null {
  const text = optional(environment, name);
  if (text === null) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(name, 'must be a URL');
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(
      name,
      `must be a ${protocols.map((protocol) => protocol.slice(0, -1)).join(' or ')} URL`,
    );
  }
  return text;
}

/** A comma-separated list of IPv4/IPv6 addresses or CIDRs (`10.0.0.0/8, ::1`). */
export function parseAddressList(text: string): string[] | null {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return null;
    if (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128))) {
      return null;
    }
  }
  return entries;
}

function parseSecretKeys(environment: Environment): {
  secretKey: string | null;
  previousSecretKeys: string[];
} {
  const secretKey = optional(environment, 'QUIRE_SECRET_KEY');
  if (secretKey !== null && parseSecretKey(secretKey) === null) {
    throw new ConfigError(
      'QUIRE_SECRET_KEY',
      'must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)',
    );
  }
  const previous = (optional(environment, 'QUIRE_PREVIOUS_SECRET_KEYS') ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  if (previous.some((key) => parseSecretKey(key) === null)) {
    throw new ConfigError(
      'QUIRE_PREVIOUS_SECRET_KEYS',
      'must be keys like QUIRE_SECRET_KEY, separated by commas',
    );
  }
  if (previous.length > 0 && secretKey === null) {
    throw new ConfigError('QUIRE_PREVIOUS_SECRET_KEYS', 'needs QUIRE_SECRET_KEY');
  }
  return { secretKey, previousSecretKeys: previous };
}

function parseTrustedProxies(environment: Environment): readonly string[] {
  const text = optional(environment, 'QUIRE_TRUSTED_PROXIES');
  if (text === null) return Object.freeze([]);
  const entries = parseAddressList(text);
  if (entries === null) {
    throw new ConfigError(
      'QUIRE_TRUSTED_PROXIES',
      `must be addresses or CIDRs separated by commas, got "${text}"`,
    );
  }
  return Object.freeze(entries);
}

export interface ConfigOverrides {
  port?: number;
  role?: Role;
}

export function loadConfig(
  environment: Environment = process.env,
  overrides: ConfigOverrides = {},
): Readonly<Config> {
  const port = overrides.port ?? parsePort(environment, 'PORT', 3000);
  const host = optional(environment, 'HOST') ?? '127.0.0.1';

  const roleText = optional(environment, 'QUIRE_ROLE') ?? 'all';
  if (!roles.includes(roleText as Role)) {
    throw new ConfigError('QUIRE_ROLE', `must be one of ${roles.join(', ')}, got "${roleText}"`);
  }

  const model = optional(environment, 'QUIRE_MODEL');
  if (model !== null && parseModelId(model) === null) {
    throw new ConfigError(
      'QUIRE_MODEL',
      `must be <provider>:<model-id> with provider ${modelProviders.join(', ')}, got "${model}"`,
    );
  }

  const publicUrl =
    parseUrl(environment, 'QUIRE_PUBLIC_URL', ['http:', 'https:']) ??
    `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return Object.freeze({
    port,
    host,
    dataDirectory: path.resolve(optional(environment, 'QUIRE_DATA_DIR') ?? '.quire'),
    databaseUrl: parseUrl(environment, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    embeddedRecoverySeconds: parseInteger(environment, 'QUIRE_EMBEDDED_RECOVERY_SECONDS', 60, 1, 3600),
    publicUrl: publicUrl.replace(/(?<!\/)\/+$/, ''),
    model,
    anthropicApiKey: optional(environment, 'ANTHROPIC_API_KEY'),
    openaiApiKey: optional(environment, 'OPENAI_API_KEY'),
    openaiCompatibleBaseUrl: parseUrl(environment, 'OPENAI_COMPATIBLE_BASE_URL', ['http:', 'https:']),
    openaiCompatibleApiKey: optional(environment, 'OPENAI_COMPATIBLE_API_KEY'),
    role: overrides.role ?? (roleText as Role),
    jobTimeoutSeconds: parseInteger(environment, 'QUIRE_JOB_TIMEOUT_SECONDS', 1800, 1, 86_400),
    workerConcurrency: parseInteger(environment, 'QUIRE_WORKER_CONCURRENCY', 2, 1, 64),
    agentRateLimitPerHour: parseInteger(environment, 'QUIRE_AGENT_RATE_LIMIT', 100, 1, 1_000_000),
    readRateLimitPerMinute: parseInteger(environment, 'QUIRE_READ_RATE_LIMIT', 6000, 1, 100_000_000),
    webhookAllowPrivate: parseBoolean(environment, 'QUIRE_WEBHOOK_ALLOW_PRIVATE'),
    clientUrl: (parseUrl(environment, 'QUIRE_URL', ['http:', 'https:']) ?? publicUrl).replace(
      /(?<!\/)\/+$/,
      '',
    ),
    clientApiKey: optional(environment, 'QUIRE_API_KEY'),
    analyticsRetentionMonths: parseInteger(environment, 'QUIRE_ANALYTICS_RETENTION_MONTHS', 13, 1, 1200),
    drainMemoryMegabytes: parseInteger(environment, 'QUIRE_DRAIN_MEMORY_MB', 128, 1, 65_536),
    requestMemoryMegabytes: parseInteger(environment, 'QUIRE_REQUEST_MEMORY_MB', 128, 1, 65_536),
    maxConnections: parseInteger(environment, 'QUIRE_MAX_CONNECTIONS', 8192, 1, 1_000_000),
    trustedProxies: parseTrustedProxies(environment),
    ...parseSecretKeys(environment),
  });
}
