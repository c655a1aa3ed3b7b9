/**
 * Checks of project fields typed by people (the dashboard's settings forms). Each returns the
 * cleaned value, or throws `InvalidInputError` saying what is expected.
 */
import { type CodeHostKind, codeHostKinds } from '../code-hosts/code-host.ts';
import { parseModelId } from '../config.ts';
import { InvalidInputError } from '../errors.ts';

export function checkProjectName(text: string): string {
  const name = text.trim();
  if (name.length < 1 || name.length > 200)
    throw new InvalidInputError('A project name is 1 to 200 characters');
  return name;
}

/** A conservative subset of git's ref rules: no spaces, no "..", no leading "-". */
export function checkRef(text: string): string {
  const ref = text.trim();
  if (!/^[A-Za-z0-9._/-]{1,200}$/.test(ref) || ref.startsWith('-') || ref.includes('..')) {
    throw new InvalidInputError('The base branch must be a branch name such as main');
  }
  return ref;
}

export function checkCodeHost(text: string): CodeHostKind {
  if (!codeHostKinds.includes(text as CodeHostKind)) {
    throw new InvalidInputError(`The code host is one of ${codeHostKinds.join(', ')}`);
  }
  return text as CodeHostKind;
}

/** A URL or an absolute path; '' means none. */
export function checkRepository(text: string): string | null {
  const repository = text.trim();
  if (repository === '') return null;
  if (repository.length > 2000 || /\s/.test(repository)) {
    throw new InvalidInputError('The repository is a URL or a path on the server, without spaces');
  }
  return repository;
}

/** '' means the server default (QUIRE_MODEL). */
export function checkModel(text: string): string {
  const model = text.trim();
  if (model !== '' && parseModelId(model) === null) {
    throw new InvalidInputError(
      'The model is <provider>:<model-id> with provider anthropic, openai or openai-compatible',
    );
  }
  return model;
}

export function checkHttpUrl(text: string, what: string): string {
  const url = URL.parse(text.trim());
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new InvalidInputError(`${what} must be an http or https URL`);
  }
  if (url.username || url.password) throw new InvalidInputError(`${what} must not contain credentials`);
  return url.toString();
}

/** A monthly budget in US dollars (up to cents); '' means none. */
export function checkMonthlyBudget(text: string): number | null {
  const value = text.trim().replace(/^\$/, '');
  if (value === '') return null;
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(value)) {
    throw new InvalidInputError('The monthly budget is an amount in US dollars, such as 50 or 12.50');
  }
  return Number(value);
}

/** A token budget per job, a positive whole number; '' means none. */
export function checkTokenLimit(text: string): number | null {
  const value = text.trim().replaceAll('_', '');
  if (value === '') return null;
  if (!/^\d{1,12}$/.test(value) || Number(value) < 1) {
    throw new InvalidInputError('The token budget per job is a positive whole number of tokens');
  }
  return Number(value);
}
