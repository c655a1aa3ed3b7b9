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
  private bytes = new Uint8Array(256);
  private length = 0;

  /** `value`: a non-negative safe integer. */
  write(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Cannot encode ${value} as a varint`);
    // A safe integer takes at most eight bytes.
    if (this.length + 8 > this.bytes.length) {
      const bytes = new Uint8Array(this.bytes.length * 2);
      bytes.set(this.bytes);
      this.bytes = bytes;
    }
    let rest = value;
    // Arithmetic above 2^31, where bit operations would wrap; shifts below it (most values).
    while (rest >= 0x80000000) {
      this.bytes[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    while (rest >= 0x80) {
      this.bytes[this.length++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.bytes[this.length++] = rest;
  }

  toBuffer(): Buffer {
    return Buffer.from(this.bytes.subarray(0, this.length));
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
