/**
 * Imports a server or CDN log: streams its lines, parses each (combined or JSON lines), runs the
 * page-view pipeline, and stores views in batches. Every view carries an import key (a hash of its
 * line number and text), so importing the same file again stores nothing twice.
 */
import { createHash } from 'node:crypto';
import type { Classifier } from '../classification/index.ts';
import type { PageViewWriter, StoredPageView } from '../ingestion/index.ts';
import { preparePageView } from '../ingestion/index.ts';
import { parseCombinedLogLine } from './combined-log.ts';
import { parseJsonLogLine } from './json-log.ts';
import type { LogLineResult } from './logged-request.ts';
import { readLines } from './read-lines.ts';

export const logFormats = ['combined', 'jsonl'] as const;
export type LogFormat = (typeof logFormats)[number];

const parsers: Record<LogFormat, (line: string) => LogLineResult> = {
  combined: parseCombinedLogLine,
  jsonl: parseJsonLogLine,
};

export const maximumLogLineLength = 64 * 1024;
const batchSize = 5000;

export interface ImportSummary {
  linesRead: number;
  imported: number;
  /** Views already stored by an earlier import of the same lines. */
  alreadyImported: number;
  /** Lines not imported, counted per reason. */
  skipped: Record<string, number>;
}

export interface LogImport {
  projectId: string;
  format: LogFormat;
  source: AsyncIterable<Uint8Array | string>;
  classifier: Classifier;
  writer: PageViewWriter;
  now: number;
  /** Views before this (the retention cutoff) are skipped. */
  keepFrom?: number;
  /** Called after each stored batch. */
  onProgress?: (summary: Readonly<ImportSummary>) => void;
}

export async function importLog(options: LogImport): Promise<ImportSummary> {
  const summary: ImportSummary = { linesRead: 0, imported: 0, alreadyImported: 0, skipped: {} };
  const skip = (reason: string) => {
    summary.skipped[reason] = (summary.skipped[reason] ?? 0) + 1;
  };
  const parse = parsers[options.format];
  let batch: StoredPageView[] = [];
  // One batch is written while the next is parsed.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    const views = batch;
    batch = [];
    await writing;
    writing = options.writer.write(options.projectId, views).then((inserted) => {
      summary.imported += inserted;
      summary.alreadyImported += views.length - inserted;
      options.onProgress?.(summary);
    });
  };

  for await (const line of readLines(options.source, { maximumLineLength: maximumLogLineLength })) {
    summary.linesRead += 1;
    if (!('text' in line)) {
      skip('line too long');
      continue;
    }
    if (line.text.trim() === '') {
      skip('empty line');
      continue;
    }
    const parsed = parse(line.text);
    if (!parsed.ok) {
      skip(parsed.reason);
      continue;
    }
    if (parsed.request.method !== 'GET') {
      skip('not a GET request');
      continue;
    }
    const prepared = preparePageView(parsed.request, {
      classifier: options.classifier,
      now: options.now,
      ...(options.keepFrom === undefined ? {} : { keepFrom: options.keepFrom }),
    });
    if (!prepared.ok) {
      skip(prepared.kind === 'skipped' ? prepared.reason : `invalid: ${prepared.reason}`);
      continue;
    }
    batch.push({
      ...prepared.view,
      userAgent: parsed.request.userAgent,
      importKey: importKeyOf(line.number, line.text),
      ...(parsed.request.address === undefined ? {} : { address: parsed.request.address }),
    });
    if (batch.length >= batchSize) await flush();
  }
  if (batch.length > 0) await flush();
  await writing;
  return summary;
}

/** 16 bytes of SHA-256 over the line number and the line: the same line of the same file, same key. */
export function importKeyOf(lineNumber: number, text: string): Buffer {
  return createHash('sha256').update(`${lineNumber}\n${text}`).digest().subarray(0, 16);
}
