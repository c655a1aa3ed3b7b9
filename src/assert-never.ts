/**
 * Ends an exhaustive `switch` over a union: the call compiles only when every member is handled,
 * and throws if a value outside the type arrives at run time anyway.
 *
 *   default: return assertNever(status, 'job status');
 */
export function assertNever(value: never, description = 'value'): never {
  throw new Error(`Unexpected ${description}: ${JSON.stringify(value) ?? String(value)}`);
}
