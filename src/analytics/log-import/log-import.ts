/**
 * Imports a server or CDN log: streams its records (gzip or not; lines, or a JSON array), parses
 * each, runs the page-view pipeline, and stores views in batches. Every view carries the identity
 * of the request it records (request-identity.ts), so importing the same requests again, from the
 * same file or any other, stores nothing twice.
 */
import { InvalidInputError } from '../../errors.ts';
import type { Classifier } from '../classification/index.ts';
import type { PageViewWriter, StoredPageView } from '../ingestion/index.ts';
import type { AgentVerifier } from '../verification/index.ts';
import { parseCombinedLogLine, parseVhostCombinedLogLine } from './combined-log.ts';
import { parseJsonLogLine, parseJsonLogRecord } from './json-log.ts';
import { readLogRecords } from './log-records.ts';
import type { LogLineResult } from './logged-request.ts';
import { type SkipStage, skipStages, viewOfLoggedRequest } from './logged-view.ts';
import { verifyLoggedView } from './logged-view-verification.ts';
import { createRequestIdentifier } from './request-identity.ts';

export const logFormats = ['combined', 'vhost_combined', 'jsonl'] as const;
export type LogFormat = (typeof logFormats)[number];

const parsers: Record<LogFormat, (line: string) => LogLineResult> = {
  combined: parseCombinedLogLine,
  vhost_combined: parseVhostCombinedLogLine,
  jsonl: parseJsonLogLine,
};
/** Reasons that say the line is not in the declared format at all (as opposed to a bad field). */
const formatReasons = new Set([
  'not in combined log format',
  'not in vhost_combined log format',
  'not valid JSON',
  'not a JSON object',
]);
/** With this many records read and none in the declared format, the import stops. */
const formatProbeRecords = 1000;

const maximumLogLineLength = 64 * 1024;
const batchSize = 5000;

export interface ImportSummary {
  linesRead: number;
  imported: number;
  /** Views whose request was already stored (by an earlier import, a drain, or earlier in this one). */
  alreadyImported: number;
  /** Views without a user agent (the common log format has none): stored, counted as human. */
  withoutUserAgent: number;
  /** Lines not imported, counted per reason, in pipeline order (reading, format, ..., no page view). */
  skipped: Record<string, number>;
}

export interface LogImport {
  projectId: string;
  format: LogFormat;
  source: AsyncIterable<Uint8Array | string>;
  classifier: Classifier;
  writer: PageViewWriter;
  /** Checks agents' claims (addresses, signatures); without it imported views are claimed only. */
  verifier?: AgentVerifier;
  now: number;
  /** Views before this (the retention cutoff) are skipped. */
  keepFrom?: number;
  /** Called after each stored batch. */
  onProgress?: (summary: Readonly<ImportSummary>) => void;
}

/** Throws `InvalidInputError` when the source is not in the declared format at all (nothing is stored then). */
export async function importLog(options: LogImport): Promise<ImportSummary> {
  const summary: ImportSummary = {
    linesRead: 0,
    imported: 0,
    alreadyImported: 0,
    withoutUserAgent: 0,
    skipped: {},
  };
  const skips = new Map<string, { stage: SkipStage; count: number }>();
  const skip = (stage: SkipStage, reason: string) => {
    const entry = skips.get(reason) ?? { stage, count: 0 };
    entry.count += 1;
    skips.set(reason, entry);
  };
  const parse = options.format === 'jsonl' ? undefined : parsers[options.format];
  const identifier = createRequestIdentifier();
  const dependencies = {
    classifier: options.classifier,
    now: options.now,
    ...(options.keepFrom === undefined ? {} : { keepFrom: options.keepFrom }),
  };
  let parsedRecords = 0;
  let firstFormatFailure: string | undefined;
  let batch: StoredPageView[] = [];
  // Identities in `batch`: a request named twice in one batch (a Vercel request's several
  // entries) is one view, and the writer must not see its key twice.
  let batchKeys = new Set<string>();
  let batchVerifications: Array<Promise<void>> = [];
  // One batch is written while the next is parsed.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    const views = batch;
    const verifications = batchVerifications;
    batch = [];
    batchKeys = new Set();
    batchVerifications = [];
    await Promise.all(verifications);
    await writing;
    writing = options.writer.write(options.projectId, views).then((inserted) => {
      summary.imported += inserted;
      summary.alreadyImported += views.length - inserted;
      options.onProgress?.(summary);
    });
  };

  const records = readLogRecords(options.source, {
    maximumLineLength: maximumLogLineLength,
    json: options.format === 'jsonl',
  });
  for await (const record of records) {
    summary.linesRead += 1;
    let parsed: LogLineResult;
    if ('tooLong' in record) {
      skip('read', 'line too long');
      continue;
    }
    if ('value' in record) {
      parsed = parseJsonLogRecord(record.value);
    } else {
      if (record.text.trim() === '') {
        skip('read', 'empty line');
        continue;
      }
      parsed = parse === undefined ? parseJsonLogLine(record.text) : parse(record.text);
    }
    if (!parsed.ok) {
      const formatFailure = formatReasons.has(parsed.reason);
      skip(formatFailure ? 'format' : 'parse', parsed.reason);
      if (formatFailure && parsedRecords === 0) {
        firstFormatFailure ??= 'text' in record ? record.text : '';
        if (summary.linesRead >= formatProbeRecords) break;
      }
      continue;
    }
    parsedRecords += 1;
    const result = viewOfLoggedRequest(parsed.request, identifier.identityOf(parsed.request), dependencies);
    if (!result.ok) {
      skip(result.stage, result.reason);
      continue;
    }
    const key = result.view.importKey as string;
    if (batchKeys.has(key)) {
      summary.alreadyImported += 1;
      continue;
    }
    batchKeys.add(key);
    if (result.view.userAgent === undefined) summary.withoutUserAgent += 1;
    batch.push(result.view);
    const verification = verifyLoggedView(options.verifier, parsed.request, result.view);
    if (verification !== undefined) batchVerifications.push(verification);
    if (batch.length >= batchSize) await flush();
  }
  if (parsedRecords === 0 && firstFormatFailure !== undefined) {
    await writing;
    throw new InvalidInputError(
      `Not in ${options.format} format: none of the first ${summary.linesRead} lines is a ${options.format} log line (the first reads "${preview(firstFormatFailure)}")`,
    );
  }
  if (batch.length > 0) await flush();
  await writing;
  summary.skipped = orderedSkips(skips);
  return summary;
}

/** Reasons by pipeline stage, then by count (most first). */
function orderedSkips(
  skips: ReadonlyMap<string, { stage: SkipStage; count: number }>,
): Record<string, number> {
  const entries = [...skips].sort(
    ([, left], [, right]) =>
      skipStages.indexOf(left.stage) - skipStages.indexOf(right.stage) || right.count - left.count,
  );
  return Object.fromEntries(entries.map(([reason, { count }]) => [reason, count]));
}

/** The start of a line, printable: control and non-ASCII characters shown as `?`. */
function preview(text: string): string {
  const start = text.slice(0, 60).replace(/[^\x20-\x7e]/g, '?');
  return text.length > 60 ? `${start}...` : start;
}
