import type { JobService } from '../agent-jobs/job-service.ts';
import type { ApiKeyCache } from '../auth/api-key-cache.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Notifier } from '../db/notifier.ts';
import type { RateLimiter } from '../rate-limits/rate-limit.ts';

/** What route handlers may use; built once by the composition root (src/main.ts). */
export interface HttpDependencies {
  config: Readonly<Config>;
  database: Database;
  jobs: JobService;
  notifier: Notifier;
  /** Recently verified keys; null to look every key up. */
  apiKeys: ApiKeyCache | null;
  /** Agent job creates and follow-ups per project (`createAgentRateLimiter`), one per process. */
  agentRateLimiter: RateLimiter;
}
