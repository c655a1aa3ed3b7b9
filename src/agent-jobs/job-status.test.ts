import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConflictError } from '../errors.ts';
import { isSettled, jobStatuses, nextStatus } from './job-status.ts';

test('a follow-up makes any job but an archived one active', () => {
  for (const status of ['active', 'completed', 'failed'] as const) {
    assert.equal(nextStatus(status, { type: 'message' }), 'active');
  }
  assert.throws(() => nextStatus('archived', { type: 'message' }), ConflictError);
});

test('archive is allowed from every state and is final', () => {
  for (const status of jobStatuses) assert.equal(nextStatus(status, { type: 'archive' }), 'archived');
});

test('a finished run completes the job unless more messages wait', () => {
  assert.equal(nextStatus('active', { type: 'run-succeed', morePending: false }), 'completed');
  assert.equal(nextStatus('active', { type: 'run-succeed', morePending: true }), 'active');
  assert.equal(nextStatus('active', { type: 'run-fail' }), 'failed');
  for (const status of ['completed', 'failed', 'archived'] as const) {
    assert.throws(() => nextStatus(status, { type: 'run-succeed', morePending: false }), ConflictError);
    assert.throws(() => nextStatus(status, { type: 'run-fail' }), ConflictError);
  }
});

test('every state but active is where a polling client stops', () => {
  assert.deepEqual(
    jobStatuses.filter((status) => isSettled(status)),
    ['completed', 'archived', 'failed'],
  );
});
