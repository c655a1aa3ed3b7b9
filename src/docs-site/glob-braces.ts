/** `a/{b,c}/d` as its alternatives (no nesting), at most `limit`, expanded group by group (8 groups). */
export function expandBraces(pattern: string, limit = 32): string[] {
  let results = [''];
  let rest = pattern;
  for (let group = 0; group < 8; group += 1) {
    const open = rest.indexOf('{');
    const close = open < 0 ? -1 : rest.indexOf('}', open);
    if (close < 0) break;
    const choices = rest
      .slice(open + 1, close)
      .split(',')
      .slice(0, limit);
    const before = rest.slice(0, open);
    results = results
      .flatMap((result) => choices.map((choice) => `${result}${before}${choice}`))
      .slice(0, limit);
    rest = rest.slice(close + 1);
  }
  return results.map((result) => `${result}${rest}`);
}
