/** `quire analytics ...`: import logs, print the export, verify and reclassify, retention, settings. */
import { type Command, InvalidArgumentError } from 'commander';
import { createClassifier } from '../analytics/classification/index.ts';
import {
  packRollups,
  previewReclassification,
  type ReclassificationPreview,
  rebuildRollups,
  reclassifyPageViews,
  retentionCutoff,
  verifyRollups,
} from '../analytics/rollups/index.ts';
import {
  analyticsSettingsOf,
  drainSettingsOf,
  drainSettingsPatch,
  parseOrigin,
  settingsPatch,
} from '../analytics/settings/index.ts';
import { dropMonthPartitionsBefore } from '../analytics/storage/index.ts';
import { type PageViewsQuery, QuireApiError } from '../client/quire-client.ts';
import type { Queryable } from '../db/database.ts';
import { NotFoundError, QuireError } from '../errors.ts';
import { findProject, updateProjectSettings } from '../projects/project-store.ts';
import { createSecretBox, loadSecretKeys, sealSettingsPatch } from '../secrets/index.ts';
import { registerAnalyticsImportCommand } from './analytics-import.ts';
import { type ClientOptions, clientFrom, withClientOptions } from './client-command.ts';
import { withDatabase } from './database-command.ts';
import { printJson, printTable } from './output.ts';
import { createProgressBar, type ProgressBar } from './progress-bar.ts';
import { readStandardInput } from './standard-input.ts';

function parseCount(minimum: number) {
  return (text: string): number => {
    if (!/^\d+$/.test(text) || Number(text) < minimum) {
      throw new InvalidArgumentError(`must be a whole number of at least ${minimum}`);
    }
    return Number(text);
  };
}

/**
 * The project a maintenance command is limited to (null: every project); one that does not exist
 * is an error, not an empty run that reports success.
 */
async function projectScope(db: Queryable, projectId: string | undefined): Promise<string | null> {
  if (projectId === undefined) return null;
  if ((await findProject(db, projectId)) === null) throw new NotFoundError(`No project with id ${projectId}`);
  return projectId;
}

function parseSwitch(text: string): boolean {
  if (text === 'on' || text === 'true') return true;
  if (text === 'off' || text === 'false') return false;
  throw new InvalidArgumentError('must be on or off');
}

export function registerAnalyticsCommands(program: Command): void {
  const analytics = program.command('analytics').description('Page-view analytics');
  registerAnalyticsImportCommand(analytics);

  for (const name of ['views', 'visitors'] as const) {
    withClientOptions(
      analytics
        .command(name)
        .description(
          name === 'views'
            ? 'Print the page-view export of a running server as a table'
            : 'Print the unique visitors of a running server as a table',
        )
        .requiredOption('--project <id>', 'the project')
        .option('--from <date>', 'dateFrom: YYYY-MM-DD or ISO 8601 date-time (inclusive)')
        .option('--to <date>', 'dateTo: YYYY-MM-DD or ISO 8601 date-time (exclusive)')
        .option('--limit <n>', 'rows per page, 1 to 250', parseCount(1), 50)
        .option('--offset <n>', 'rows to skip', parseCount(0), 0)
        .option('--all', 'follow hasMore and print every page')
        .option('--json', 'print the result as one JSON object'),
    ).action(async (options: ViewsOptions) => {
      const client = clientFrom(options);
      const result = await fetchExport(options, async (query) => {
        if (name === 'views') {
          const page = await client.pageViews(options.project, query);
          return { totals: page.totals, rows: page.views, hasMore: page.hasMore };
        }
        const page = await client.visitors(options.project, query);
        return { totals: page.totals, rows: page.visitors, hasMore: page.hasMore };
      });
      const { totals, rows, hasMore } = result;
      if (options.json) return printJson({ totals, [name]: rows, hasMore });
      printTable(
        ['PATH', 'HUMAN', 'AI', 'TOTAL'],
        rows.map((row) => [row.path, String(row.human), String(row.ai), String(row.total)]),
      );
      console.log(
        `\ntotal ${totals.total} ${name} (human ${totals.human}, ai ${totals.ai})${hasMore ? '; more pages: --offset or --all' : ''}`,
      );
    });
  }

  analytics
    .command('verify')
    .description('Prove that the rollups equal the raw page views (exit 1 when they do not)')
    .option('--project <id>', 'only this project')
    .option('--json', 'print the report as one JSON object')
    .action(async (options: { project?: string; json?: boolean }) => {
      const report = await withDatabase(async (database) =>
        verifyRollups(database.pool, await projectScope(database.pool, options.project)),
      );
      if (options.json) printJson(report);
      else {
        console.log(
          `${report.rawEvents} raw page views, ${report.rollupRowsChecked} rollup rows checked` +
            (report.checkedFrom ? ` (from ${report.checkedFrom.toISOString().slice(0, 10)})` : '') +
            `, ${report.packedRowsChecked} packed rows checked, ${report.visitorRowsChecked} visitor sketches checked`,
        );
        for (const mismatch of report.mismatches.slice(0, 20)) {
          console.log(
            `MISMATCH ${mismatch.table} ${mismatch.projectId} ${mismatch.granularity} ${mismatch.bucket.toISOString()} ${mismatch.key}: raw ${mismatch.raw}, rollup ${mismatch.rollup}`,
          );
        }
        console.log(
          report.mismatches.length === 0
            ? 'OK: rollups equal raw counts'
            : `${report.mismatches.length} mismatches`,
        );
      }
      if (report.mismatches.length > 0) process.exitCode = 1;
    });

  analytics
    .command('rebuild')
    .description(
      'Rebuild the page and agent rollups from the raw events (when verify finds a difference); writers wait while it runs',
    )
    .option('--project <id>', 'only this project')
    .action(async (options: { project?: string }) => {
      const report = await withDatabase(async (database) =>
        rebuildRollups(database.pool, await projectScope(database.pool, options.project)),
      );
      console.log(
        report.rebuiltFrom === null
          ? 'No raw events are kept: nothing to rebuild'
          : `Rollups rebuilt from ${report.rebuiltFrom.toISOString()}`,
      );
    });

  analytics
    .command('pack')
    .description(
      'Pack the rollups of closed hours, days, thirds of a month and months now (the server does it every minute)',
    )
    .option('--project <id>', 'only this project')
    .action(async (options: { project?: string }) => {
      const report = await withDatabase(async (database) => {
        const projectId = await projectScope(database.pool, options.project);
        return packRollups(database.pool, projectId === null ? {} : { projectId });
      });
      console.log(`${report.packed} buckets packed`);
    });

  analytics
    .command('reclassify')
    .description(
      'Classify stored page views again with the current classifier, and change the rollups with them',
    )
    .option('--project <id>', 'only this project')
    .option('--dry-run', 'change nothing: print the views whose category or agent would change')
    .option('--json', 'print the report as one JSON object')
    .action(async (options: { project?: string; dryRun?: boolean; json?: boolean }) => {
      const classifier = createClassifier();
      if (options.dryRun) {
        const preview = await withDatabase(async (database) =>
          previewReclassification(
            database.pool,
            classifier,
            await projectScope(database.pool, options.project),
          ),
        );
        if (options.json) return printJson(preview);
        const named = (side: ReclassificationPreview['changes'][number]['from']) =>
          side.agent === null ? side.category : `${side.category} (${side.agent})`;
        printTable(
          ['VIEWS', 'FROM', 'TO'],
          preview.changes.map((change) => [String(change.views), named(change.from), named(change.to)]),
        );
        const changed = preview.changes.reduce((sum, change) => sum + change.views, 0);
        console.log(
          `\nClassifier ${preview.classifierVersion}: ${changed} of ${preview.staleViews} stale views would change category or agent; nothing was changed`,
        );
        return;
      }
      const report = await withDatabase(async (database) => {
        const projectId = await projectScope(database.pool, options.project);
        let progress: ProgressBar<object> | undefined;
        try {
          return await reclassifyPageViews(database.pool, classifier, projectId, {
            onProgress: (views, total) => {
              progress ??= createProgressBar(
                '[{bar}] {percentage}% {value}/{total} views reclassified',
                total,
                {},
              );
              progress.update(views);
            },
          });
        } finally {
          progress?.stop();
        }
      });
      if (options.json) return printJson(report);
      console.log(
        `Classifier ${report.classifierVersion}: ${report.viewsUpdated} views from ${report.userAgents} user agents reclassified, ${report.viewsChanged} changed category, ${report.visitorMarksMoved} visitor marks moved (${report.transactions} transactions)`,
      );
    });

  analytics
    .command('prune')
    .description('Drop raw page views older than the retention period (rollups are kept)')
    .option('--months <n>', 'months to keep (default: QUIRE_ANALYTICS_RETENTION_MONTHS or 13)', parseCount(1))
    .action(async (options: { months?: number }) => {
      const dropped = await withDatabase((database, config) =>
        dropMonthPartitionsBefore(
          database.pool,
          retentionCutoff(Date.now(), options.months ?? config.analyticsRetentionMonths),
        ),
      );
      console.log(dropped.length === 0 ? 'Nothing to drop' : `Dropped ${dropped.join(', ')}`);
    });

  analytics
    .command('settings')
    .description("Show or change a project's analytics settings")
    .requiredOption('--project <id>', 'the project')
    .option(
      '--allowed-origins <origins>',
      'comma-separated origins the browser tracker may send from ("" for none)',
    )
    .option(
      '--count-ai-crawlers <on|off>',
      'count AI search and training crawlers as ai in the export',
      parseSwitch,
    )
    .option(
      '--vercel-drain-secret <secret>',
      'the Vercel drain\'s signature secret (- reads it from standard input, "" clears it)',
    )
    .option(
      '--vercel-verify-code <code>',
      'the verification code Vercel shows for a new drain ("" clears it)',
    )
    .option('--json', 'print the settings as one JSON object')
    .action(
      async (options: {
        project: string;
        allowedOrigins?: string;
        countAiCrawlers?: boolean;
        vercelDrainSecret?: string;
        vercelVerifyCode?: string;
        json?: boolean;
      }) => {
        const vercelSecret =
          options.vercelDrainSecret === '-' ? await readStandardInput() : options.vercelDrainSecret;
        const drainPatch = drainSettingsPatch({
          ...(vercelSecret === undefined ? {} : { vercelSecret }),
          ...(options.vercelVerifyCode === undefined ? {} : { vercelVerifyCode: options.vercelVerifyCode }),
        });
        const allowedOrigins =
          options.allowedOrigins === undefined
            ? undefined
            : options.allowedOrigins
                .split(',')
                .filter((origin) => origin.trim() !== '')
                .map(parseOrigin);
        const settings = await withDatabase(async (database, config) => {
          const patch = {
            ...settingsPatch({
              ...(allowedOrigins === undefined ? {} : { allowedOrigins }),
              ...(options.countAiCrawlers === undefined
                ? {}
                : { countAiCrawlersAsAi: options.countAiCrawlers }),
            }),
            ...drainPatch,
          };
          const project =
            Object.keys(patch).length > 0
              ? // The drain secret is sealed before it is stored (src/secrets/).
                await updateProjectSettings(
                  database.pool,
                  options.project,
                  sealSettingsPatch(patch, createSecretBox(loadSecretKeys(config))),
                )
              : await findProject(database.pool, options.project);
          if (project === null) throw new NotFoundError(`No project with id ${options.project}`);
          const drains = drainSettingsOf(project.settings);
          // The secret is never printed, only whether it is set.
          return {
            ...analyticsSettingsOf(project.settings),
            vercelDrainSecretSet: drains.vercelSecret !== null,
            vercelVerifyCode: drains.vercelVerifyCode,
          };
        });
        if (options.json) return printJson(settings);
        console.log(`allowed origins: ${settings.allowedOrigins.join(', ') || '(none: the tracker is off)'}`);
        console.log(`count AI crawlers as ai: ${settings.countAiCrawlersAsAi ? 'on' : 'off'}`);
        console.log(`vercel drain secret: ${settings.vercelDrainSecretSet ? 'set' : 'not set'}`);
        console.log(`vercel verify code: ${settings.vercelVerifyCode ?? 'not set'}`);
      },
    );
}

interface ViewsOptions extends ClientOptions {
  project: string;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
  all?: boolean;
  json?: boolean;
}

/** One page of `/views` or `/visitors`, whose rows have the same shape. */
interface ExportPage {
  totals: { human: number; ai: number; total: number };
  rows: Array<{ path: string; human: number; ai: number; total: number }>;
  hasMore: boolean;
}

async function fetchExport(
  options: ViewsOptions,
  fetchPage: (query: PageViewsQuery) => Promise<ExportPage>,
): Promise<ExportPage> {
  try {
    const parameters = {
      ...(options.from === undefined ? {} : { dateFrom: options.from }),
      ...(options.to === undefined ? {} : { dateTo: options.to }),
      limit: options.all ? 250 : options.limit,
    };
    let offset = options.offset;
    const first = await fetchPage({ ...parameters, offset });
    const result = { ...first, rows: [...first.rows] };
    while (options.all && result.hasMore) {
      offset += parameters.limit;
      const next = await fetchPage({ ...parameters, offset });
      result.rows.push(...next.rows);
      result.hasMore = next.hasMore;
    }
    return result;
  } catch (error: unknown) {
    if (error instanceof QuireApiError) {
      const details = error.details.map((detail) => `; ${detail.message}`).join('');
      throw new QuireError(
        'invalid_input',
        `the server answered ${error.status}: ${error.message}${details}`,
      );
    }
    if (error instanceof TypeError && error.cause instanceof Error) {
      // fetch's own failure: nothing listening, refused, DNS, ...
      throw new QuireError(
        'invalid_input',
        `could not reach the server (--url or QUIRE_URL): ${error.cause.message}`,
      );
    }
    throw error;
  }
}
