/**
 * A process-wide budget of bytes for work whose memory grows with its input: concurrent holders
 * reserve what they expect to use, wait their turn in order while the budget is spent, and give up
 * with the caller's error (a 429 with `Retry-After` for the drains) after a bounded wait. The log
 * drains need it: a 16 MiB gzipped body inflates to at most 64 MiB, held while its records are
 * read, so a few dozen such requests at once would hold gigabytes (docs/analytics.md, "Live log
 * drains").
 *
 *   const budget = createByteBudget({ limitBytes: 128 << 20, maximumWaitMilliseconds: 10_000, busy });
 *   const reservation = await budget.reserve(body.length);
 *   try { ... await reservation.grow(more) ... } finally { reservation.release(); }
 */

export interface ByteBudget {
  /**
   * Resolves once `bytes` fit beside what others hold, in the order asked. A reservation larger
   * than the whole budget is granted when nothing else is held, so no input waits for ever.
   * Rejects with the `busy` error after the maximum wait, or after `maximumWaitMilliseconds` when
   * given (what is left of a caller's own deadline).
   */
  reserve(bytes: number, maximumWaitMilliseconds?: number): Promise<Reservation>;
  /** Bytes held now. */
  readonly used: number;
}

export interface Reservation {
  /** Bytes this reservation holds. */
  readonly bytes: number;
  /** Holds `bytes` more, ahead of reservations not yet granted; rejects like `reserve`. */
  grow(bytes: number): Promise<void>;
  /** Gives everything back; calling it again does nothing. */
  release(): void;
}

interface Waiter {
  bytes: number;
  /** What the asker holds already (a growing reservation); 0 for a new one. */
  held: number;
  grant(): void;
  timer: NodeJS.Timeout;
}

export function createByteBudget(options: {
  limitBytes: number;
  maximumWaitMilliseconds: number;
  /** The error a reservation that waited too long rejects with. */
  busy: () => Error;
}): ByteBudget {
  let used = 0;
  const waiting: Waiter[] = [];

  // Alone, anything fits: the only holder may exceed the limit rather than wait for ever.
  const fits = (waiter: Pick<Waiter, 'bytes' | 'held'>) =>
    used === waiter.held || used + waiter.bytes <= options.limitBytes;

  function grantWaiting(): void {
    for (let head = waiting[0]; head !== undefined && fits(head); head = waiting[0]) {
      waiting.shift();
      clearTimeout(head.timer);
      used += head.bytes;
      head.grant();
    }
  }

  /** Takes `bytes` now if they fit and nobody waits before them, else waits in line. */
  function take(bytes: number, held: number, first: boolean, wait: number): Promise<void> {
    const ahead = first ? 0 : waiting.length;
    if (ahead === 0 && fits({ bytes, held })) {
      used += bytes;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        bytes,
        held,
        grant: resolve,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(options.busy());
          // The one that left may have blocked those behind it.
          grantWaiting();
        }, wait),
      };
      if (first) waiting.unshift(waiter);
      else waiting.push(waiter);
    });
  }

  return {
    async reserve(bytes, maximumWaitMilliseconds = options.maximumWaitMilliseconds) {
      await take(bytes, 0, false, maximumWaitMilliseconds);
      let held = bytes;
      let released = false;
      return {
        get bytes() {
          return held;
        },
        async grow(more) {
          if (released) throw new Error('A released reservation cannot grow');
          await take(more, held, true, options.maximumWaitMilliseconds);
          held += more;
        },
        release() {
          if (released) return;
          released = true;
          used -= held;
          held = 0;
          grantWaiting();
        },
      };
    },
    get used() {
      return used;
    },
  };
}
