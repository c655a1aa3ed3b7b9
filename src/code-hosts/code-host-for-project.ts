import { isAbsolute } from 'node:path';
import { NonRetriableError } from '../errors.ts';
import type { SecretBox } from '../secrets/index.ts';
import type { CodeHost, CodeHostProject } from './code-host.ts';
import { createGitHubCodeHost } from './github/github-code-host.ts';
import { createGitLabCodeHost } from './gitlab/gitlab-code-host.ts';
import { createLocalCodeHost } from './local/local-code-host.ts';
import type { ReviewStore } from './local/review.ts';

/**
 * Picks and configures the code host of a project from its `codeHost` and settings:
 *   github: `settings.github = { token }` or `{ appId, privateKey, installationId?, apiBaseUrl? }`
 *   gitlab: `settings.gitlab = { token, host? }`
 *   local:  the repository is an absolute path on this machine; no settings.
 */
export function createCodeHostResolver(dependencies: {
  publicUrl: string;
  reviews: ReviewStore;
  /** Credentials are stored sealed; they are opened here, where they are used, and nowhere else. */
  secrets: SecretBox;
}) {
  const secret = (value: unknown) => {
    const stored = text(value);
    return stored === undefined ? undefined : dependencies.secrets.open(stored);
  };
  return (project: CodeHostProject): CodeHost => {
    const repository = project.repository ?? '';
    switch (project.codeHost) {
      case 'local':
        if (!isAbsolute(repository)) {
          throw new NonRetriableError(
            'A project on the local code host needs an absolute repository path on this machine',
          );
        }
        return createLocalCodeHost({
          repository,
          publicUrl: dependencies.publicUrl,
          reviews: dependencies.reviews,
        });
      case 'github': {
        const settings = record(project.settings.github);
        const apiBaseUrl = text(settings.apiBaseUrl);
        const token = secret(settings.token);
        if (token !== undefined)
          return createGitHubCodeHost({ repository, credentials: { token }, apiBaseUrl });
        const appId =
          text(settings.appId) ?? (typeof settings.appId === 'number' ? settings.appId : undefined);
        const privateKey = secret(settings.privateKey);
        if (appId === undefined || privateKey === undefined) {
          throw new NonRetriableError(
            'A GitHub project needs settings.github.token, or settings.github.appId and privateKey',
          );
        }
        const installationId =
          typeof settings.installationId === 'number' ? settings.installationId : undefined;
        return createGitHubCodeHost({
          repository,
          credentials: { appId, privateKey, installationId },
          apiBaseUrl,
        });
      }
      case 'gitlab': {
        const settings = record(project.settings.gitlab);
        const token = secret(settings.token);
        if (token === undefined) throw new NonRetriableError('A GitLab project needs settings.gitlab.token');
        return createGitLabCodeHost({ repository, token, host: text(settings.host) });
      }
      default:
        throw new NonRetriableError(`Unknown code host "${String(project.codeHost)}"`);
    }
  };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
