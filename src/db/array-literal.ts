/**
 * PostgreSQL array literals for statement parameters (`unnest($2::bigint[])`). pg serialises an
 * array parameter element by element through its generic value conversion, which took a fifth of
 * the page-view writer's time for batches of thousands of elements; these build the literal in one
 * pass. Only for the element types below; anything else goes through pg as usual.
 */

/** Integers (`integer[]`, `bigint[]`): every element must be a safe integer. */
export function integerArrayLiteral(values: readonly number[]): string {
  return `{${values.join(',')}}`;
}

/** Characters an array element's quoting must escape. */
const quoted = /["\\]/;

/** Text (`text[]`); `null` elements are SQL NULL. */
export function textArrayLiteral(values: readonly (string | null)[]): string {
  // Joined, not grown with `+=`: a grown string is a rope, which the pg client flattens again to
  // measure and encode it. Most elements need no escape, and a test is cheaper than a replace.
  const elements = new Array<string>(values.length);
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    if (value === null || value === undefined) elements[index] = 'NULL';
    else if (quoted.test(value)) elements[index] = `"${value.replace(/["\\]/g, '\\$&')}"`;
    else elements[index] = `"${value}"`;
  }
  return `{${elements.join(',')}}`;
}

/** Byte strings (`bytea[]`) given as hex digits (`0-9a-f`, an even number of them; not checked). */
export function hexByteaArrayLiteral(values: readonly string[]): string {
  // Each element is `"\\x<hex>"`: `\x<hex>` once the array's quoting is read, bytea's hex format.
  return values.length === 0 ? '{}' : `{"\\\\x${values.join('","\\\\x')}"}`;
}

/** Booleans (`boolean[]`). */
export function booleanArrayLiteral(values: readonly boolean[]): string {
  return `{${values.map((value) => (value ? 't' : 'f')).join(',')}}`;
}
