/** Waits until `check` returns a value (not undefined/false), polling; fails after `timeoutMilliseconds`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  options: { timeoutMilliseconds?: number; message?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMilliseconds ?? 15_000);
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error: unknown) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`${options.message ?? 'condition not met in time'}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
