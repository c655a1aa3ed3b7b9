/**
 * The monthly budget's gate on new runs: a project whose runs this calendar month (UTC) cost its
 * `monthlyBudgetUsd` or more gets 429 for job creates, follow-ups and automation triggers, with
 * `Retry-After` at the start of next month. Runs already under way are stopped by their
 * `RunBudget` instead.
 */
import type { Queryable } from '../db/database.ts';
import { RateLimitedError } from '../errors.ts';
import { findMonthlySpend, monthStart, nextMonthStart } from './budget-store.ts';

/**
 * Projects found to have no monthly budget, until when: most have none, and asking the database on
 * every job creation cost creates half their throughput (a round trip outside the group commit). A
 * budget set on such a project applies in each API process within `noBudgetMemoryMilliseconds`;
 * a project with a budget is checked on every creation.
 */
export class NoBudgetMemory {
  readonly #until = new Map<string, number>();

  has(projectId: string, now: number): boolean {
    const until = this.#until.get(projectId);
    return until !== undefined && until > now;
  }

  remember(projectId: string, now: number): void {
    if (this.#until.size >= maximumRememberedProjects) this.#until.clear();
    this.#until.set(projectId, now + noBudgetMemoryMilliseconds);
  }
}

export const noBudgetMemoryMilliseconds = 10_000;
const maximumRememberedProjects = 10_000;

export async function assertWithinMonthlyBudget(
  db: Queryable,
  projectId: string,
  now: Date = new Date(),
  noBudget: NoBudgetMemory | null = null,
): Promise<void> {
  if (noBudget?.has(projectId, now.getTime()) === true) return;
  const spend = await findMonthlySpend(db, projectId, monthStart(now));
  if (spend !== null && spend.budgetUsd === null) noBudget?.remember(projectId, now.getTime());
  if (spend === null || spend.budgetUsd === null || spend.spentUsd < spend.budgetUsd) return;
  const retryAfterSeconds = Math.ceil((nextMonthStart(now).getTime() - now.getTime()) / 1000);
  throw new RateLimitedError(
    `This project is past its monthly budget of $${spend.budgetUsd.toFixed(2)} ($${spend.spentUsd.toFixed(2)} estimated this month), so it starts no new agent runs until next month; raise the budget with \`quire project update ${projectId} --monthly-budget <usd>\` or on the dashboard's settings page`,
    retryAfterSeconds,
  );
}
