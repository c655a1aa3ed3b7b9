/**
 * The agent job's states and every legal transition, in one place (DESIGN.md §1):
 * create → active; active → completed | failed; completed | failed → active on a follow-up;
 * any → archived, which is final.
 */

import { assertNever } from '../assert-never.ts';
import { ConflictError } from '../errors.ts';

export type JobStatus = 'active' | 'completed' | 'archived' | 'failed';
export const jobStatuses: readonly JobStatus[] = ['active', 'completed', 'archived', 'failed'];

export type JobTransition =
  | { type: 'message' }
  | { type: 'archive' }
  | { type: 'run-succeed'; morePending: boolean }
  | { type: 'run-fail' };

/** States a polling client stops at (the spec's client rule). */
export function isSettled(status: JobStatus): boolean {
  return status !== 'active';
}

/** Returns the next state, or throws `ConflictError` for a transition the state does not allow. */
export function nextStatus(current: JobStatus, transition: JobTransition): JobStatus {
  switch (transition.type) {
    case 'message':
      if (current === 'archived')
        throw new ConflictError('This job is archived; it accepts no more messages');
      return 'active';
    case 'archive':
      return 'archived';
    case 'run-succeed':
      if (current !== 'active') throw new ConflictError(`A run cannot finish a job that is ${current}`);
      return transition.morePending ? 'active' : 'completed';
    case 'run-fail':
      if (current !== 'active') throw new ConflictError(`A run cannot fail a job that is ${current}`);
      return 'failed';
    default:
      return assertNever(transition);
  }
}
