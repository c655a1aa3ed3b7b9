/**
 * The offset of the first syntax error in JSON text (RFC 8259), for reporting a configuration error at
 * its line: V8's `JSON.parse` names a position for some errors and only a snippet for others. A
 * single pass with a nesting bound; null when the text is valid JSON.
 */
export function jsonErrorOffset(text: string): number | null {
  const scanner = new Scanner(text);
  try {
    scanner.skipSpace();
    scanner.value(0);
    scanner.skipSpace();
    return scanner.offset < text.length ? scanner.offset : null;
  } catch (error: unknown) {
    if (error instanceof SyntaxAt) return error.offset;
    throw error;
  }
}

class SyntaxAt extends Error {
  readonly offset: number;
  constructor(offset: number) {
    super(`JSON syntax error at ${offset}`);
    this.offset = offset;
  }
}

const maximumNesting = 512;
const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not hold raw control characters.
const stringPattern = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

class Scanner {
  offset = 0;
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  skipSpace(): void {
    while (/[ \t\n\r]/.test(this.#text[this.offset] ?? '')) this.offset += 1;
  }

  value(depth: number): void {
    if (depth > maximumNesting) throw new SyntaxAt(this.offset);
    const character = this.#text[this.offset];
    if (character === '{')
      this.#container('}', () => {
        this.#match(stringPattern);
        this.skipSpace();
        this.#expect(':');
        this.skipSpace();
        this.value(depth + 1);
      });
    else if (character === '[') this.#container(']', () => this.value(depth + 1));
    else if (character === '"') this.#match(stringPattern);
    else if (this.#text.startsWith('true', this.offset)) this.offset += 4;
    else if (this.#text.startsWith('false', this.offset)) this.offset += 5;
    else if (this.#text.startsWith('null', this.offset)) this.offset += 4;
    else this.#match(numberPattern);
  }

  #container(close: string, member: () => void): void {
    this.offset += 1;
    this.skipSpace();
    if (this.#text[this.offset] === close) {
      this.offset += 1;
      return;
    }
    for (;;) {
      member();
      this.skipSpace();
      if (this.#text[this.offset] === close) {
        this.offset += 1;
        return;
      }
      this.#expect(',');
      this.skipSpace();
    }
  }

  #expect(character: string): void {
    if (this.#text[this.offset] !== character) throw new SyntaxAt(this.offset);
    this.offset += 1;
  }

  #match(pattern: RegExp): void {
    pattern.lastIndex = this.offset;
    const match = pattern.exec(this.#text);
    if (match === null || match[0].length === 0) throw new SyntaxAt(this.offset);
    this.offset += match[0].length;
  }
}
