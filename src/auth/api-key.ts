/**
 * API keys: `quire_` followed by 43 random URL-safe characters (256 bits). Only a SHA-256 hash is
 * stored: with that much entropy a fast hash is safe, and it lets a request find its key with one
 * indexed lookup. The last four characters are kept for display.
 */
import { hash, randomBytes } from 'node:crypto';

export type Scope = 'read' | 'write' | 'ingest';
export const scopes: readonly Scope[] = ['read', 'write', 'ingest'];

export const apiKeyPrefix = 'quire_';
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
  };
}
