/**
 * A log drain's use case: a provider's batch of log entries in, one page view per request out.
 * Bad entries are skipped and counted, never refused with the whole batch: a provider cannot fix
 * one line and retries a refused batch until it gives up, and a visitor who sends a control
 * character in a User-Agent must not be able to block a site's logs. A body that is not the
 * provider's format at all is refused (400). Every view carries its request's identity (the
 * provider's request id), so a retried batch stores nothing twice.
 */
import { setImmediate } from 'node:timers/promises';
import type { ByteBudget } from '../../byte-budget.ts';
import type { PageViewWriter, PipelineDependencies, StoredPageView } from '../ingestion/index.ts';
import {
  createRequestIdentifier,
  type LogLineResult,
  parseDrainRecord,
  verifyLoggedView,
  viewOfLoggedRequest,
} from '../log-import/index.ts';
import type { AgentVerifier } from '../verification/index.ts';
import { decompressBody, expectedBodyBytes, isPlainText, readBodyRecords } from './drain-body.ts';

export const drainProviders = ['vercel', 'cloudflare', 'netlify'] as const;
export type DrainProvider = (typeof drainProviders)[number];

export interface DrainResult {
  /** Page views stored. */
  accepted: number;
  /** Requests already stored (a retried batch, or several entries of one request). */
  alreadyStored: number;
  /** Entries that are no page view or could not be read (runtime logs, assets, errors, bad fields). */
  skipped: number;
}

const writeSize = 5000;

export async function ingestDrain(
  dependencies: PipelineDependencies & {
    writer: PageViewWriter;
    verifier?: AgentVerifier;
    /** Held for the decompressed body while it is read and written (byte-budget.ts). */
    memory: ByteBudget;
  },
  projectId: string,
  provider: DrainProvider,
  body: Buffer,
): Promise<DrainResult> {
  const memory = await dependencies.memory.reserve(expectedBodyBytes(body));
  try {
    return await ingestBody(dependencies, projectId, provider, await decompressBody(body, memory));
  } finally {
    memory.release();
  }
}

async function ingestBody(
  dependencies: PipelineDependencies & { writer: PageViewWriter; verifier?: AgentVerifier },
  projectId: string,
  provider: DrainProvider,
  decompressed: Buffer[],
): Promise<DrainResult> {
  const plainText = isPlainText(decompressed);
  const { slices, validAtEnd } = readBodyRecords(decompressed);
  const identifier = createRequestIdentifier();
  const result: DrainResult = { accepted: 0, alreadyStored: 0, skipped: 0 };
  const views: StoredPageView[] = [];
  let verifications: Array<Promise<void>> = [];
  const write = async (written: StoredPageView[]) => {
    // Verified before they are written, as the batch endpoint does: the verdict is stored with the view.
    await Promise.all(verifications);
    verifications = [];
    const inserted = await dependencies.writer.write(projectId, written);
    result.accepted += inserted;
    result.alreadyStored += written.length - inserted;
  };
  let read = 0;
  let sinceTurn = 0;
  let firstRecord: unknown;
  for (const slice of slices) {
    // Other requests get their turn between the pieces of a large body.
    if (sinceTurn >= writeSize) {
      sinceTurn = 0;
      await setImmediate();
    }
    if (read === 0) firstRecord = slice[0];
    read += slice.length;
    sinceTurn += slice.length;
    for (const record of slice) {
      const parsed: LogLineResult = parseDrainRecord(provider, record);
      if (!parsed.ok) {
        result.skipped += 1;
        continue;
      }
      const view = viewOfLoggedRequest(parsed.request, identifier.identityOf(parsed.request), dependencies, {
        plainText,
      });
      if (!view.ok) {
        result.skipped += 1;
        continue;
      }
      // A request twice in the batch is stored once, and counted as already stored, by the writer.
      views.push(view.view);
      const verification = verifyLoggedView(dependencies.verifier, parsed.request, view.view);
      if (verification !== undefined) verifications.push(verification);
    }
    if (!validAtEnd && views.length >= writeSize) await write(views.splice(0));
  }
  if (provider === 'cloudflare' && read === 1 && isCloudflareValidation(firstRecord)) {
    return { accepted: 0, alreadyStored: 0, skipped: 0 };
  }
  // A JSON array's views are written once the whole body is known to be one.
  for (let start = 0; start < views.length; start += writeSize) {
    await write(views.slice(start, start + writeSize));
  }
  return result;
}

/** Cloudflare checks a new HTTP destination by sending `{"content":"tests"}` (gzipped). */
function isCloudflareValidation(only: unknown): boolean {
  return (
    typeof only === 'object' &&
    only !== null &&
    Object.keys(only).length === 1 &&
    typeof (only as { content?: unknown }).content === 'string'
  );
}
