/**
 * Unsigned LEB128 varints, the encoding of every compact analytics column (packed rollups, visitor
 * marks, packed visitor counts): seven bits a byte, low bits first, the high bit set on every byte
 * but the last. Small numbers take one byte.
 *
 *   const writer = new VarintWriter();
 *   writer.write(300);
 *   new VarintReader(writer.toBuffer(), 'example').read(); // 300
 */

export class VarintWriter {
  private readonly bytes: number[] = [];

  /** `value`: a non-negative safe integer. */
  write(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Cannot encode ${value} as a varint`);
    let rest = value;
    while (rest >= 0x80) {
      this.bytes.push((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.bytes.push(rest);
  }

  toBuffer(): Buffer {
    return Buffer.from(this.bytes);
  }
}

export class VarintReader {
  private offset = 0;
  private readonly bytes: Uint8Array;
  private readonly what: string;

  /** `what`: the encoding's name, for the error on truncated or oversized input. */
  constructor(bytes: Uint8Array, what: string) {
    this.bytes = bytes;
    this.what = what;
  }

  get done(): boolean {
    return this.offset >= this.bytes.length;
  }

  read(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.bytes[this.offset];
      if (byte === undefined || scale > 2 ** 49) throw new RangeError(`Truncated ${this.what}`);
      this.offset += 1;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }
}
