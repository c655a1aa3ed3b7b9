import type { Queryable } from '../db/database.ts';
import type { AnalyticsSource } from './analytics-source.ts';

/**
 * The analytics page's source on this database. Null until the analytics module (ingestion, the
 * export queries) is part of this build; the page then says so instead of showing numbers.
 */
export function createAnalyticsSource(_db: Queryable): AnalyticsSource | null {
  return null;
}
