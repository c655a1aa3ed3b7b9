import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createGroupCommit } from './group-commit.ts';

/** A commit that holds each group until `release` is called, recording the groups it saw. */
function heldCommits() {
  const groups: string[][] = [];
  const releases: Array<() => void> = [];
  return {
    groups,
    release: () => releases.shift()?.(),
    commit: async (items: string[]) => {
      groups.push(items);
      await new Promise<void>((resolve) => releases.push(resolve));
      if (items.includes('bad')) throw new Error('bad item');
      return items.map((item) => item.toUpperCase());
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('items that arrive while a commit is in flight go together in the next one', async () => {
  const held = heldCommits();
  const group = createGroupCommit({ commit: held.commit });
  const results = ['a', 'b', 'c', 'd'].map((item) => group.submit(item));
  await tick();
  assert.deepEqual(held.groups, [['a']]);
  held.release();
  await tick();
  assert.deepEqual(held.groups, [['a'], ['b', 'c', 'd']]);
  held.release();
  assert.deepEqual(await Promise.all(results), ['A', 'B', 'C', 'D']);
});

test('groups respect the maximum size and the concurrency', async () => {
  const held = heldCommits();
  const group = createGroupCommit({ commit: held.commit, concurrency: 2, maximumGroupSize: 2 });
  const results = ['a', 'b', 'c', 'd', 'e', 'f'].map((item) => group.submit(item));
  await tick();
  assert.deepEqual(held.groups, [['a'], ['b']]);
  for (let round = 0; round < 4; round += 1) {
    held.release();
    await tick();
  }
  assert.deepEqual(held.groups, [['a'], ['b'], ['c', 'd'], ['e', 'f']]);
  assert.deepEqual(await Promise.all(results), ['A', 'B', 'C', 'D', 'E', 'F']);
});

test('beside a group in flight, another starts only once enough is queued', async () => {
  const held = heldCommits();
  const group = createGroupCommit({
    commit: held.commit,
    concurrency: 2,
    minimumConcurrentGroupSize: 3,
  });
  const results = ['a', 'b', 'c'].map((item) => group.submit(item));
  await tick();
  // 'a' started alone (nothing was in flight); 'b' and 'c' are too few for a second group.
  assert.deepEqual(held.groups, [['a']]);
  results.push(group.submit('d'));
  await tick();
  assert.deepEqual(held.groups, [['a'], ['b', 'c', 'd']]);
  results.push(group.submit('e'));
  await tick();
  assert.deepEqual(held.groups, [['a'], ['b', 'c', 'd']]);
  // With nothing in flight, what is queued starts whatever its size.
  held.release();
  held.release();
  await tick();
  assert.deepEqual(held.groups, [['a'], ['b', 'c', 'd'], ['e']]);
  held.release();
  assert.deepEqual(await Promise.all(results), ['A', 'B', 'C', 'D', 'E']);
});

test("one item's failure fails only its caller: the rest of its group is committed alone", async () => {
  const group = createGroupCommit({
    commit: async (items: string[]) => {
      if (items.includes('bad')) throw new Error('bad item');
      return items.map((item) => item.toUpperCase());
    },
  });
  const outcomes = await Promise.allSettled(['a', 'b', 'bad', 'c'].map((item) => group.submit(item)));
  assert.deepEqual(
    outcomes.map((outcome) =>
      outcome.status === 'fulfilled' ? outcome.value : (outcome.reason as Error).message,
    ),
    ['A', 'B', 'bad item', 'C'],
  );
});

test('close waits for what is queued and refuses what comes after', async () => {
  const held = heldCommits();
  const group = createGroupCommit({ commit: held.commit, closedMessage: 'closed for the night' });
  const results = [group.submit('a'), group.submit('b')];
  let closed = false;
  const closing = group.close().then(() => {
    closed = true;
  });
  await assert.rejects(group.submit('c'), /closed for the night/);
  held.release();
  await tick();
  assert.equal(closed, false);
  held.release();
  await closing;
  assert.deepEqual(await Promise.all(results), ['A', 'B']);
});
