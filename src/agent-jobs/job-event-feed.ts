/** A job's step log as the edges read it: pages of events, and a wake-up when new ones commit. */
import type { Queryable } from '../db/database.ts';
import type { Notifier } from '../db/notifier.ts';
import { type JobEvent, jobEventsChannel, listJobEvents } from './job-events.ts';

export interface JobEventFeed {
  /** Up to `limit` events of the job after the event id `after`, oldest first. */
  list(jobId: string, after: number, limit: number): Promise<JobEvent[]>;
  /** Calls `listener` with the job id whenever a job's event commits; returns a function that stops. */
  subscribe(listener: (jobId: string) => void): Promise<() => void>;
  /** Called after the notification connection comes back (events may have been missed meanwhile). */
  onReconnect(listener: () => void): () => void;
}

export function createJobEventFeed(db: Queryable, notifier: Notifier): JobEventFeed {
  return {
    list: (jobId, after, limit) => listJobEvents(db, jobId, after, limit),
    subscribe: (listener) => notifier.subscribe(jobEventsChannel, listener),
    onReconnect: (listener) => notifier.onReconnect(listener),
  };
}
