import type { SiteProblem } from '../docs-site/index.ts';
import { formatProblems } from './site-session.ts';

const maximumTitleLength = 72;

/** A title from the job's first instruction: one line, at most 72 characters. */
export function pullRequestTitle(firstPrompt: string): string {
  const line = firstPrompt.replace(/\s+/g, ' ').trim();
  const title =
    line.length > maximumTitleLength ? `${line.slice(0, maximumTitleLength - 1).trimEnd()}…` : line;
  return title === '' ? 'Documentation changes' : title;
}

export function pullRequestBody(options: {
  summary: string;
  changedFiles: string[];
  problems: SiteProblem[];
  jobId: string;
}): string {
  const sections = [options.summary.trim() || 'No summary was given.'];
  sections.push(
    `### Changed files\n${options.changedFiles.map((line) => `- \`${line.replace('\t', '` `')}\``).join('\n') || '- none'}`,
  );
  if (options.problems.length > 0) {
    sections.push(`### Validation problems still open\n${formatProblems(options.problems)}`);
  }
  sections.push(`Made by Quire for agent job \`${options.jobId}\`.`);
  return sections.join('\n\n');
}

export function commitMessage(title: string, summary: string, jobId: string): string {
  const body = summary.trim().slice(0, 4000);
  return `${title}\n\n${body === '' ? 'Documentation changes.' : body}\n\nQuire-Job: ${jobId}\n`;
}
