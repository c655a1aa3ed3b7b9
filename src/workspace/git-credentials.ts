/**
 * Credentials for one git command, passed through the environment only: git reads
 * `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` as configuration for that process, so
 * the secret is never written to disk, to `.git/config`, into a remote URL or onto a command line
 * (where `ps` would show it).
 */
export interface GitCredentials {
  username: string;
  password: string;
  /** The repository URL; when set, the header is sent to that origin only (not to a redirect elsewhere). */
  url?: string | undefined;
}

/** The environment that makes git send HTTP basic authentication for this command. */
export function credentialEnvironment(
  credentials: GitCredentials | null | undefined,
): Record<string, string> {
  if (credentials === null || credentials === undefined) return {};
  const basic = Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `http.${scope(credentials.url)}extraHeader`,
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
  };
}

/** Removes any trace of the credentials from a message before it is logged or stored. */
export function redactCredentials(message: string, credentials: GitCredentials | null | undefined): string {
  if (credentials === null || credentials === undefined || credentials.password === '') return message;
  const basic = Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64');
  return message.split(credentials.password).join('[redacted]').split(basic).join('[redacted]');
}

function scope(url: string | undefined): string {
  if (url === undefined) return '';
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') return `${parsed.origin}/.`;
  } catch {}
  return '';
}
