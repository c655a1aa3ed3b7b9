/**
 * The long-lived analytics objects a process needs: the classifier (with its cache) and the
 * group-committing writer. Built once per process by the composition root (src/main.ts), closed with it.
 */
import type pg from 'pg';
import { type Classifier, createClassifier } from '../classification/index.ts';
import {
  type AgentVerifier,
  createAgentVerifier,
  createDnsResolver,
  createHttpKeyDirectory,
  type KeyDirectory,
  publishedIpRanges,
  type ReverseDnsResolver,
} from '../verification/index.ts';
import { createPageViewWriter, type PageViewWriter } from './page-view-writer.ts';

export interface AnalyticsServices {
  classifier: Classifier;
  /** Checks agents' claims: Web Bot Auth, published address ranges, reverse DNS. */
  verifier: AgentVerifier;
  writer: PageViewWriter;
  retentionMonths: number;
  close(): Promise<void>;
}

export function createAnalyticsServices(
  pool: pg.Pool,
  options: {
    retentionMonths: number;
    /** The network adapters verification uses; tests pass fakes and local doubles. */
    resolver?: ReverseDnsResolver;
    keyDirectory?: KeyDirectory;
  },
): AnalyticsServices {
  const writer = createPageViewWriter({ pool });
  return {
    classifier: createClassifier(),
    verifier: createAgentVerifier({
      ipRanges: publishedIpRanges,
      resolver: options.resolver ?? createDnsResolver(),
      keyDirectory: options.keyDirectory ?? createHttpKeyDirectory(),
    }),
    writer,
    retentionMonths: options.retentionMonths,
    close: () => writer.close(),
  };
}
