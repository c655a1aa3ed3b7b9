/**
 * API keys: `quire_` followed by 43 random URL-safe characters (256 bits). Only a SHA-256 hash is
 * stored: with that much entropy a fast hash is safe, and it lets a request find its key with one
 * indexed lookup. The last four characters are kept for display.
 */
import { hash, randomBytes } from 'node:crypto';
import { BlockList, isIPv4, isIPv6 } from 'node:net';

export type Scope = 'read' | 'write' | 'ingest';
const scopes: readonly Scope[] = ['read', 'write', 'ingest'];

const apiKeyPrefix = 'quire_';
const keyPattern = /^quire_[A-Za-z0-9_-]{32,128}$/;

export interface ApiKey {
  id: string;
  projectId: string;
  name: string;
  scopes: Scope[];
  lastFour: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  /** Addresses or CIDRs the key may be used from; null: anywhere. */
  allowedAddresses: string[] | null;
}

export function generateApiKeySecret(): string {
  return `${apiKeyPrefix}${randomBytes(32).toString('base64url')}`;
}

export function isWellFormedApiKey(secret: string): boolean {
  return keyPattern.test(secret);
}

export function hashApiKeySecret(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/** `write` implies `read`; `write` also allows ingestion, which `ingest` alone is limited to. */
export function grantsScope(granted: readonly Scope[], required: Scope): boolean {
  switch (required) {
    case 'read':
      return granted.includes('read') || granted.includes('write');
    case 'write':
      return granted.includes('write');
    case 'ingest':
      return granted.includes('ingest') || granted.includes('write');
  }
}

/** Parses `read,write` into scopes; null when empty or unknown. */
export function parseScopes(text: string): Scope[] | null {
  const parts = [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    ),
  ];
  if (parts.length === 0 || !parts.every((part) => scopes.includes(part as Scope))) return null;
  return parts as Scope[];
}

/** The public shape of a key: never its secret, never its hash. */
export function presentApiKey(key: ApiKey) {
  return {
    id: key.id,
    projectId: key.projectId,
    name: key.name,
    scopes: key.scopes,
    lastFour: key.lastFour,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    allowedAddresses: key.allowedAddresses,
  };
}

/**
 * True when the key may be used from `address` (the request's client address, which believes
 * `X-Forwarded-For` only from QUIRE_TRUSTED_PROXIES). An IPv4 client reached over IPv6 sockets
 * (`::ffff:203.0.113.9`) is matched as IPv4.
 */
export function keyAllowsAddress(key: Pick<ApiKey, 'allowedAddresses'>, address: string): boolean {
  if (key.allowedAddresses === null) return true;
  const client = address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
  const family = isIPv4(client) ? 'ipv4' : isIPv6(client) ? 'ipv6' : null;
  if (family === null) return false;
  const list = new BlockList();
  for (const entry of key.allowedAddresses) {
    const [network = '', prefix] = entry.split('/');
    const entryFamily = isIPv4(network) ? 'ipv4' : 'ipv6';
    const bits = prefix === undefined ? (entryFamily === 'ipv4' ? 32 : 128) : Number(prefix);
    list.addSubnet(network, bits, entryFamily);
  }
  return list.check(client, family);
}
