/**
 * The long-lived analytics objects a process needs: the classifier (with its cache) and the
 * group-committing writer. Built once per process by the composition root (src/main.ts), closed with it.
 */
import type pg from 'pg';
import { type Classifier, createClassifier } from '../classification/index.ts';
import { createPageViewWriter, type PageViewWriter } from './page-view-writer.ts';

export interface AnalyticsServices {
  classifier: Classifier;
  writer: PageViewWriter;
  retentionMonths: number;
  close(): Promise<void>;
}

export function createAnalyticsServices(
  pool: pg.Pool,
  options: { retentionMonths: number },
): AnalyticsServices {
  const writer = createPageViewWriter({ pool });
  return {
    classifier: createClassifier(),
    writer,
    retentionMonths: options.retentionMonths,
    close: () => writer.close(),
  };
}
