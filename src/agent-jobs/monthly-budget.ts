/**
 * The monthly budget's gate on new runs: a project whose runs this calendar month (UTC) cost its
 * `monthlyBudgetUsd` or more gets 429 for job creates, follow-ups and automation triggers, with
 * `Retry-After` at the start of next month. Runs already under way are stopped by their
 * `RunBudget` instead.
 */
import type { Queryable } from '../db/database.ts';
import { RateLimitedError } from '../errors.ts';
import { findMonthlySpend, monthStart, nextMonthStart } from './budget-store.ts';

export async function assertWithinMonthlyBudget(
  db: Queryable,
  projectId: string,
  now: Date = new Date(),
): Promise<void> {
  const spend = await findMonthlySpend(db, projectId, monthStart(now));
  if (spend === null || spend.budgetUsd === null || spend.spentUsd < spend.budgetUsd) return;
  const retryAfterSeconds = Math.ceil((nextMonthStart(now).getTime() - now.getTime()) / 1000);
  throw new RateLimitedError(
    `This project is past its monthly budget of $${spend.budgetUsd.toFixed(2)} ($${spend.spentUsd.toFixed(2)} estimated this month), so it starts no new agent runs until next month; raise the budget with \`quire project update ${projectId} --monthly-budget <usd>\` or on the dashboard's settings page`,
    retryAfterSeconds,
  );
}
