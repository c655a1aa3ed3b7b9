import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';

/** What route handlers may use; built once by the composition root (src/main.ts). */
export interface HttpDependencies {
  config: Readonly<Config>;
  database: Database;
}
