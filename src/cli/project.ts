import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CodeHostKind } from '../agent-jobs/agent-runner.ts';
import { codeHostKinds, presentProject } from '../projects/project.ts';
import { insertProject, listProjects } from '../projects/project-store.ts';
import { withDatabase } from './database-command.ts';
import { printJson, printTable } from './output.ts';

function parseName(text: string): string {
  const name = text.trim();
  if (name.length < 1 || name.length > 200) throw new InvalidArgumentError('must be 1 to 200 characters');
  return name;
}

function parseRef(text: string): string {
  // A conservative subset of git's ref rules: no spaces, no "..", no leading "-".
  if (!/^[A-Za-z0-9._/-]{1,200}$/.test(text) || text.startsWith('-') || text.includes('..')) {
    throw new InvalidArgumentError('must be a branch name such as main');
  }
  return text;
}

export function registerProjectCommands(program: Command): void {
  const project = program.command('project').description('Manage projects');

  project
    .command('create')
    .description('Create a project')
    .requiredOption('--name <name>', 'a display name', parseName)
    .option('--repository <url-or-path>', 'the documentation repository: a URL, or a path on this machine')
    .option('--ref <ref>', 'the base branch jobs start from', parseRef, 'main')
    .addOption(
      new Option('--code-host <kind>', 'where pull requests are opened')
        .choices(codeHostKinds)
        .default('local'),
    )
    .option('--json', 'print the project as one JSON object')
    .action(
      async (options: {
        name: string;
        repository?: string;
        ref: string;
        codeHost: CodeHostKind;
        json?: boolean;
      }) => {
        const created = await withDatabase((database) =>
          insertProject(database.pool, {
            name: options.name,
            repository: options.repository ?? null,
            ref: options.ref,
            codeHost: options.codeHost,
          }),
        );
        if (options.json) return printJson(presentProject(created));
        console.log(`Created project ${created.id} (${created.name})`);
      },
    );

  project
    .command('list')
    .description('List projects')
    .option('--json', 'print {"projects": [...]}')
    .action(async (options: { json?: boolean }) => {
      const projects = await withDatabase((database) => listProjects(database.pool));
      if (options.json) return printJson({ projects: projects.map(presentProject) });
      printTable(
        ['ID', 'NAME', 'CODE HOST', 'REF', 'REPOSITORY'],
        projects.map((item) => [item.id, item.name, item.codeHost, item.ref, item.repository ?? '-']),
      );
    });
}
