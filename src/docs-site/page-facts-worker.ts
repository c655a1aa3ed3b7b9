// A worker thread reading page facts for the pool in page-facts-pool.ts: texts in, facts out.
import { parentPort } from 'node:worker_threads';
import { type MarkdownDialect, readPageFacts } from './page-facts.ts';

parentPort?.on('message', (batch: Array<{ text: string; dialect: MarkdownDialect }>) => {
  parentPort?.postMessage(batch.map((item) => readPageFacts(item.text, item.dialect)));
});
