/**
 * Finds the line a value is written on in a configuration file (JSON, YAML, JavaScript, a Markdown
 * summary), so that a navigation problem names its place. Parsers that keep positions differ per
 * format; a value's text is the same in all of them. Repeated values are found in order: the second
 * request for "intro" answers the second place it is written.
 */
export class ConfigLines {
  readonly #text: string;
  readonly #lineStarts: number[] = [0];
  readonly #cursor = new Map<string, number>();

  constructor(text: string) {
    this.#text = text;
    for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) {
      this.#lineStarts.push(index + 1);
    }
  }

  /**
   * The 1-based line of the next place `value` is written as a whole value; 1 when it is not found.
   * With `within` (offsets, end excluded), only that part of the text is searched: a navigation
   * entry's page is also written in redirects or links elsewhere in the same file.
   */
  lineOf(value: string, within?: readonly [number, number]): number {
    if (value === '') return 1;
    const [floor, ceiling] = within ?? [0, this.#text.length];
    const start = Math.max(this.#cursor.get(value) ?? floor, floor);
    const offset =
      this.#find(value, start, ceiling) ?? (start > floor ? this.#find(value, floor, ceiling) : null);
    if (offset === null) return 1;
    this.#cursor.set(value, offset + value.length);
    return this.#lineAt(offset);
  }

  #find(value: string, from: number, ceiling: number): number | null {
    for (
      let index = this.#text.indexOf(value, from);
      index >= 0 && index + value.length <= ceiling;
      index = this.#text.indexOf(value, index + 1)
    ) {
      const before = index === 0 ? '' : (this.#text[index - 1] ?? '');
      const after = this.#text[index + value.length] ?? '';
      if ((before === '' || /["'`\s([:]/.test(before)) && (after === '' || /["'`\s)\],#]/.test(after)))
        return index;
    }
    return null;
  }

  /** The 1-based line of an offset in the text. */
  lineAt(offset: number): number {
    return this.#lineAt(offset);
  }

  #lineAt(offset: number): number {
    let low = 0;
    let high = this.#lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.#lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }
}
