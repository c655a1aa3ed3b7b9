import { NonRetriableError } from '../errors.ts';

/** The parts of an HTTPS repository URL: `https://github.com/acme/docs.git` → origin and `acme/docs`. */
export interface RepositoryAddress {
  origin: string;
  /** The path without leading slash and `.git`: `owner/name`, or `group/subgroup/name` on GitLab. */
  path: string;
}

export function parseRepositoryUrl(repository: string): RepositoryAddress {
  let url: URL;
  try {
    url = new URL(repository);
  } catch {
    throw new NonRetriableError(`The repository "${repository}" is not an HTTPS URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new NonRetriableError(`The repository "${repository}" must be an http(s) URL for this code host`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new NonRetriableError(
      'The repository URL must not contain credentials; put them in the project settings',
    );
  }
  const path = url.pathname.replace(/^\/+|(?<!\/)\/+$/g, '').replace(/\.git$/, '');
  if (!path.includes('/'))
    throw new NonRetriableError(`The repository "${repository}" has no owner/name path`);
  return { origin: url.origin, path };
}
