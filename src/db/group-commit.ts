/**
 * Group commit for writes that arrive concurrently: while `concurrency` commits are in flight,
 * arriving items queue up and go together in the next one, so under load many requests share one
 * statement (and one WAL flush) while each caller still learns the outcome of its own item only
 * after it is committed. An idle system commits each item at once, so latency does not suffer.
 *
 *   const creates = createGroupCommit({ commit: (items) => insertAll(pool, items) });
 *   const job = await creates.submit(item);
 */

export interface GroupCommit<Item, Result> {
  /** Resolves with the item's result once its group is committed. */
  submit(item: Item): Promise<Result>;
  /** Waits for queued items to be committed; later items are refused. */
  close(): Promise<void>;
}

export interface GroupCommitOptions<Item, Result> {
  /** Commits a group of items; returns one result per item, in order. */
  commit(items: Item[]): Promise<Result[]>;
  /** Groups in flight at once (default 1). */
  concurrency?: number;
  /** A group's size, at most (by `size`); one item is never split. */
  maximumGroupSize?: number;
  /**
   * While a group is in flight, another starts only once this much (by `size`) is queued (default
   * 1): a small group beside a running one costs a transaction for little, where waiting for the
   * running one to finish lets more items join. With nothing in flight, any item starts at once.
   */
  minimumConcurrentGroupSize?: number;
  /** An item's share of `maximumGroupSize` (default 1). */
  size?(item: Item): number;
  /** What `submit` rejects with after `close`. */
  closedMessage?: string;
}

interface Pending<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

export function createGroupCommit<Item, Result>(
  options: GroupCommitOptions<Item, Result>,
): GroupCommit<Item, Result> {
  const concurrency = options.concurrency ?? 1;
  const maximumGroupSize = options.maximumGroupSize ?? 1000;
  const minimumConcurrentGroupSize = options.minimumConcurrentGroupSize ?? 1;
  const size = options.size ?? (() => 1);
  const queue: Pending<Item, Result>[] = [];
  /** The size of what `queue` holds. */
  let queued = 0;
  let inFlight = 0;
  let closed = false;
  let idle: (() => void) | null = null;

  async function run(group: Pending<Item, Result>[]): Promise<void> {
    try {
      const results = await options.commit(group.map((pending) => pending.item));
      for (const [index, pending] of group.entries()) pending.resolve(results[index] as Result);
    } catch (error: unknown) {
      if (group.length === 1) {
        group[0]?.reject(error);
        return;
      }
      // One caller's failure must not fail the others: retry each alone.
      await Promise.all(
        group.map((pending) =>
          options.commit([pending.item]).then(
            ([result]) => pending.resolve(result as Result),
            (alone: unknown) => pending.reject(alone),
          ),
        ),
      );
    }
  }

  function pump(): void {
    while (
      inFlight < concurrency &&
      queue.length > 0 &&
      (inFlight === 0 || queued >= minimumConcurrentGroupSize)
    ) {
      const group: Pending<Item, Result>[] = [];
      let total = 0;
      while (queue.length > 0) {
        const next = queue[0] as Pending<Item, Result>;
        if (group.length > 0 && total + size(next.item) > maximumGroupSize) break;
        group.push(next);
        total += size(next.item);
        queue.shift();
      }
      queued -= total;
      inFlight += 1;
      void run(group).finally(() => {
        inFlight -= 1;
        if (inFlight === 0 && queue.length === 0) idle?.();
        pump();
      });
    }
  }

  return {
    submit(item) {
      if (closed) return Promise.reject(new Error(options.closedMessage ?? 'Closed'));
      return new Promise<Result>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        queued += size(item);
        pump();
      });
    },
    close() {
      closed = true;
      if (inFlight === 0 && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        idle = resolve;
      });
    },
  };
}
