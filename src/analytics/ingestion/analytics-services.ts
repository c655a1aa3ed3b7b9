/**
 * The long-lived analytics objects a process needs: the classifier (with its cache) and the
 * group-committing writer. Built once per process by the composition root (src/main.ts), closed with it.
 */
import type pg from 'pg';
import { type ByteBudget, createByteBudget } from '../../byte-budget.ts';
import { RateLimitedError } from '../../errors.ts';
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
  /** What drained bodies being read may hold at once, in decompressed bytes (QUIRE_DRAIN_MEMORY_MB). */
  drainMemory: ByteBudget;
  retentionMonths: number;
  close(): Promise<void>;
}

/**
 * How long a drained batch waits for memory before it is answered 429: long enough for a batch
 * or two ahead of it to be written, short enough to answer before a provider's own timeout.
 */
const defaultDrainWaitMilliseconds = 10_000;
const drainRetryAfterSeconds = 5;

export function createAnalyticsServices(
  pool: pg.Pool,
  options: {
    retentionMonths: number;
    drainMemoryBytes: number;
    drainWaitMilliseconds?: number;
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
    drainMemory: createByteBudget({
      limitBytes: options.drainMemoryBytes,
      maximumWaitMilliseconds: options.drainWaitMilliseconds ?? defaultDrainWaitMilliseconds,
      busy: () =>
        new RateLimitedError(
          'The server is busy reading other drained batches; send this one again shortly',
          drainRetryAfterSeconds,
        ),
    }),
    retentionMonths: options.retentionMonths,
    close: () => writer.close(),
  };
}
