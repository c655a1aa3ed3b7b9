import type { AccountService } from '../accounts/account-service.ts';
import type { JobEventFeed } from '../agent-jobs/job-event-feed.ts';
import type { JobService } from '../agent-jobs/job-service.ts';
import type { AnalyticsServices } from '../analytics/ingestion/index.ts';
import type { AnalyticsReports } from '../analytics/reports/index.ts';
import type { ApiKeyService } from '../auth/api-key-service.ts';
import type { AutomationService } from '../automations/automation-service.ts';
import type { ReviewCommentService } from '../automations/conversations/review-comments.ts';
import type { HookService } from '../automations/hooks/hook-service.ts';
import type { ReviewService } from '../code-hosts/local/review-service.ts';
import type { Config } from '../config.ts';
import type { ProjectService } from '../projects/project-service.ts';
import type { RateLimiter } from '../rate-limits/rate-limit.ts';
import type { WebhookService } from '../webhooks/webhook-service.ts';

/**
 * What route handlers and the dashboard may use: services, never the database. Built once by the
 * composition root (src/main.ts, `createServices` in src/services.ts).
 */
export interface HttpDependencies {
  config: Readonly<Config>;
  projects: ProjectService;
  apiKeys: ApiKeyService;
  jobs: JobService;
  jobEvents: JobEventFeed;
  automations: AutomationService;
  /** Code-host webhooks: verified, stored and queued. */
  hooks: HookService;
  /** The classifier and the group-committing page-view writer, one per process. */
  analyticsIngestion: AnalyticsServices;
  analyticsReports: AnalyticsReports;
  reviews: ReviewService;
  /** Comments on review pages, which become follow-ups of the review's job. */
  reviewComments: ReviewCommentService;
  accounts: AccountService;
  webhooks: WebhookService;
  /** Agent job creates and follow-ups per project, one per process. */
  agentRateLimiter: RateLimiter;
  /** True when the database is reachable and migrated (`GET /readyz`). */
  isReady(): Promise<boolean>;
  /**
   * False when the process cannot recover by itself (its embedded PostgreSQL could not be
   * restarted): `GET /healthz` fails so that the process supervisor restarts it.
   */
  isAlive(): boolean;
}
