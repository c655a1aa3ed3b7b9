import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { MarkdownDialect } from './page-facts.ts';
import type { PageFacts } from './site-model.ts';

/** Below this many pages, starting threads costs more than it saves. */
const minimumParallelPages = 400;

/**
 * Reads the facts of many pages on worker threads, one per core (at most four), so the first full
 * check of a large site (thousands of pages, a few seconds of parsing) takes a fraction of the time
 * and leaves the event loop free. Small batches are read in the calling thread by `readOne`.
 */
export async function readManyPageFacts(
  items: ReadonlyArray<{ text: string; dialect: MarkdownDialect }>,
  readOne: (text: string, dialect: MarkdownDialect) => PageFacts,
): Promise<PageFacts[]> {
  const threads = Math.min(4, availableParallelism(), Math.floor(items.length / (minimumParallelPages / 2)));
  if (items.length < minimumParallelPages || threads < 2) {
    return items.map((item) => readOne(item.text, item.dialect));
  }
  const size = Math.ceil(items.length / threads);
  const chunks = Array.from({ length: threads }, (_, index) => items.slice(index * size, (index + 1) * size));
  const results = await Promise.all(chunks.map((chunk) => readOnThread(chunk)));
  return results.flat();
}

function readOnThread(
  chunk: ReadonlyArray<{ text: string; dialect: MarkdownDialect }>,
): Promise<PageFacts[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./page-facts-worker.ts', import.meta.url));
    worker.once('message', (facts: PageFacts[]) => {
      resolve(facts);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`page facts worker exited with code ${code}`));
    });
    worker.postMessage(chunk);
  });
}
