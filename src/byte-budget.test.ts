import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { createByteBudget } from './byte-budget.ts';

class BusyError extends Error {}

const budgetOf = (limitBytes: number, maximumWaitMilliseconds = 5_000) =>
  createByteBudget({ limitBytes, maximumWaitMilliseconds, busy: () => new BusyError('busy') });

/** Whether `promise` has settled after the pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await delay(5);
  return done;
}

describe('createByteBudget', () => {
  it('grants what fits at once and holds the rest back until released, in order', async () => {
    const budget = budgetOf(100);
    const first = await budget.reserve(60);
    const second = budget.reserve(50);
    const third = budget.reserve(10);
    // The third would fit, but it waits behind the second: a large batch is never starved.
    assert.equal(await settled(second), false);
    assert.equal(await settled(third), false);
    assert.equal(budget.used, 60);
    first.release();
    const [granted, small] = await Promise.all([second, third]);
    assert.equal(budget.used, 60);
    granted.release();
    small.release();
    assert.equal(budget.used, 0);
  });

  it('lets a reservation larger than the budget through when nothing else is held', async () => {
    const budget = budgetOf(100);
    const large = await budget.reserve(250);
    const next = budget.reserve(1);
    assert.equal(await settled(next), false);
    large.release();
    (await next).release();
    assert.equal(budget.used, 0);
  });

  it('rejects with the busy error after the maximum wait, and lets those behind it through', async () => {
    const budget = budgetOf(100, 20);
    const held = await budget.reserve(90);
    await assert.rejects(budget.reserve(50), BusyError);
    assert.equal(budget.used, 90);
    held.release();
    (await budget.reserve(100)).release();
  });

  it('waits no longer than the caller says is left of its own deadline', async () => {
    const budget = budgetOf(100, 60_000);
    const held = await budget.reserve(90);
    await assert.rejects(budget.reserve(50, 20), BusyError);
    held.release();
    assert.equal(budget.used, 0);
  });

  it('grows a reservation ahead of new ones, alone beyond the budget', async () => {
    const budget = budgetOf(100);
    const growing = await budget.reserve(40);
    const other = await budget.reserve(40);
    const waiting = budget.reserve(30);
    const grown = growing.grow(30);
    assert.equal(await settled(grown), false);
    other.release();
    await grown;
    assert.equal(growing.bytes, 70);
    // 70 + 30 fit: the waiting reservation goes next.
    (await waiting).release();
    // The only holder may grow past the limit.
    await growing.grow(200);
    assert.equal(budget.used, 270);
    growing.release();
    assert.equal(budget.used, 0);
  });

  it('counts a release once and refuses to grow a released reservation', async () => {
    const budget = budgetOf(100);
    const reservation = await budget.reserve(0);
    await reservation.grow(10);
    reservation.release();
    reservation.release();
    assert.equal(budget.used, 0);
    await assert.rejects(reservation.grow(1), /released/);
  });
});
