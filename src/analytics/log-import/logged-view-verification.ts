/**
 * Verification of logged views (imports and drains), as the batch endpoint verifies its events: the
 * logged client address, method, host, target and signal headers make the claim, and Cloudflare's
 * own `VerifiedBotCategory` counts when it agrees with the classification. Only views whose agent
 * can be verified at all start a check (`canVerify`), so a log of people and unverifiable bots costs
 * nothing more; answers are cached by the verifier.
 */
import type { StoredPageView } from '../ingestion/index.ts';
import type { AgentVerifier } from '../verification/index.ts';
import type { LoggedRequest } from './logged-request.ts';
import { visitorAddressOf } from './logged-view.ts';

/** Checks `view`'s agent and sets `view.verified`; a promise only while a lookup is under way. */
export function verifyLoggedView(
  verifier: AgentVerifier | undefined,
  request: LoggedRequest,
  view: StoredPageView,
): Promise<void> | undefined {
  if (verifier === undefined || view.category === 'human') return undefined;
  const claim = {
    agent: view.agent,
    category: view.category,
    ip: visitorAddressOf(request),
    method: request.method,
    host: request.host,
    target: request.target,
    headers: request.headers ?? {},
    verifiedBotCategory: request.verifiedBotCategory,
  };
  if (!verifier.canVerify(claim)) return undefined;
  const verdict = verifier.verify(claim);
  if (typeof verdict === 'boolean') {
    view.verified = verdict;
    return undefined;
  }
  return verdict.then((verified) => {
    view.verified = verified;
  });
}
