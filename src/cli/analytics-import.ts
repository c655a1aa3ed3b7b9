/** `quire analytics import`: streams log files into a project, with a progress bar and a summary. */
import fs from 'node:fs';
import { type Command, Option } from 'commander';
import { createAnalyticsServices } from '../analytics/ingestion/index.ts';
import { type ImportSummary, importLog, type LogFormat, logFormats } from '../analytics/log-import/index.ts';
import { retentionCutoff } from '../analytics/rollups/index.ts';
import { InvalidInputError, isQuireError, NotFoundError } from '../errors.ts';
import { findProject } from '../projects/project-store.ts';
import { withDatabase } from './database-command.ts';
import { printJson, printTable } from './output.ts';
import { createProgressBar } from './progress-bar.ts';

export function registerAnalyticsImportCommand(analytics: Command): void {
  analytics
    .command('import')
    .description('Import page views from server or CDN logs (safe to re-run: nothing is counted twice)')
    .requiredOption('--project <id>', 'the project the views belong to')
    .addOption(
      new Option(
        '--format <format>',
        'combined: nginx/Apache; vhost_combined: Apache with host:port first; jsonl: JSON lines or a JSON array (Cloudflare, Vercel, Netlify); gzip is detected',
      )
        .choices(logFormats)
        .makeOptionMandatory(),
    )
    .option('--json', 'print the summary as one JSON object')
    .option(
      '--no-verify',
      "don't verify agents' claims (no reverse DNS or Web Bot Auth key-directory lookups: for machines without network)",
    )
    .argument('<files...>', 'log files; - reads standard input')
    .action(
      async (
        files: string[],
        options: { project: string; format: LogFormat; json?: boolean; verify: boolean },
      ) => {
        for (const file of files) {
          if (file !== '-' && !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
            throw new NotFoundError(`${file} is not a readable file`);
          }
        }
        const totals = await withDatabase(async (database, config) => {
          if ((await findProject(database.pool, options.project)) === null) {
            throw new NotFoundError(`No project with id ${options.project}`);
          }
          const analytics = createAnalyticsServices(database.pool, {
            retentionMonths: config.analyticsRetentionMonths,
            drainMemoryBytes: config.drainMemoryMegabytes * 1024 * 1024,
          });
          const summaries: Array<{ file: string; summary: ImportSummary }> = [];
          try {
            for (const file of files) {
              const source = file === '-' ? process.stdin : fs.createReadStream(file);
              const size = file === '-' ? 0 : fs.statSync(file).size;
              const progress = createProgressBar(
                `${size > 0 ? '[{bar}] {percentage}% ' : ''}{file}: {lines} lines, {imported} imported`,
                size,
                { file, lines: 0, imported: 0 },
              );
              const bytesRead = () => ('bytesRead' in source ? source.bytesRead : 0);
              const show = (summary: Readonly<ImportSummary>) =>
                progress.update(bytesRead(), { file, lines: summary.linesRead, imported: summary.imported });
              const summary = await importLog({
                projectId: options.project,
                format: options.format,
                source,
                classifier: analytics.classifier,
                writer: analytics.writer,
                ...(options.verify ? { verifier: analytics.verifier } : {}),
                now: Date.now(),
                keepFrom: retentionCutoff(Date.now(), config.analyticsRetentionMonths),
                onProgress: show,
              }).catch((error: unknown) => {
                progress.stop();
                // Say which file; the views of files before it are stored (and a re-run skips them).
                if (isQuireError(error)) throw new InvalidInputError(`${file}: ${error.message}`);
                throw error;
              });
              show(summary);
              progress.stop();
              summaries.push({ file, summary });
            }
          } finally {
            await analytics.close();
          }
          return summaries;
        });
        if (options.json) return printJson({ files: totals });
        for (const { file, summary } of totals) printSummary(file, summary);
      },
    );
}

function printSummary(file: string, summary: ImportSummary): void {
  const skipped = Object.values(summary.skipped).reduce((sum, count) => sum + count, 0);
  console.log(
    `${file}: ${summary.linesRead} lines read, ${summary.imported} imported, ${summary.alreadyImported} already imported, ${skipped} skipped`,
  );
  if (summary.withoutUserAgent > 0) {
    console.log(
      `${summary.withoutUserAgent} views have no user agent (common log format): unclassified, counted as human`,
    );
  }
  // In pipeline order: reading, format, request, invalid fields, no page view.
  const reasons = Object.entries(summary.skipped);
  if (reasons.length > 0) {
    printTable(
      ['SKIPPED', 'REASON'],
      reasons.map(([reason, count]) => [String(count), reason]),
    );
  }
}
