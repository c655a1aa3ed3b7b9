/**
 * Checks of automation fields beyond what the request schema says (a cron expression croner can
 * read, a time zone, branch names): each returns the cleaned value or throws `InvalidInputError`.
 */
import { InvalidInputError } from '../errors.ts';
import { checkRef } from '../projects/project-fields.ts';
import type { AutomationTrigger } from './automation.ts';
import { checkSchedule } from './schedule.ts';

export function checkAutomationName(text: string): string {
  const name = text.trim();
  if (name.length < 1 || name.length > 200)
    throw new InvalidInputError('An automation name is 1 to 200 characters');
  return name;
}

export function checkAutomationPrompt(text: string): string {
  if (text.trim() === '' || text.length > 20_000 || text.includes('\u0000')) {
    throw new InvalidInputError('A prompt is 1 to 20,000 characters, not only white space, no NUL character');
  }
  return text;
}

export function checkTrigger(trigger: AutomationTrigger): AutomationTrigger {
  switch (trigger.type) {
    case 'manual':
      return { type: 'manual' };
    case 'schedule':
      checkSchedule(trigger.cron, trigger.timeZone);
      return { type: 'schedule', cron: trigger.cron.trim(), timeZone: trigger.timeZone };
    case 'merge': {
      const repository = trigger.repository.trim();
      if (repository === '' || /\s/.test(repository)) {
        throw new InvalidInputError(
          'trigger.repository is owner/name, a repository URL, or a path on the server',
        );
      }
      const paths = (trigger.paths ?? []).map((glob) => glob.trim()).filter((glob) => glob !== '');
      return {
        type: 'merge',
        repository,
        branch: checkRef(trigger.branch),
        ...(paths.length > 0 ? { paths } : {}),
      };
    }
  }
}
