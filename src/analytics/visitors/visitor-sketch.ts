/**
 * A mergeable distinct count of visitors (HyperLogLog with an exact sparse form). Each visitor is a
 * 32-bit value (visitor-identity.ts): a sketch keeps the distinct values themselves while there
 * are at most `sparseLimit` of them, so small counts are exact, and then turns into 2^15 HyperLogLog
 * registers, whose estimate has a standard error of 1.04 / sqrt(2^15) ≈ 0.57% (so 2% is 3.5 standard
 * errors) at any size.
 *
 * Why not a library: the well-kept npm HyperLogLog (bloom-filters) has neither an exact sparse form
 * nor a compact binary encoding, and this encoding is a storage format that must never change
 * under us. The estimator is Otmar Ertl's improved raw estimator ("New cardinality estimation
 * algorithms for HyperLogLog sketches", 2017, https://arxiv.org/abs/1702.01284, section 3.3; also
 * Redis's since 5.0), which needs no empirical bias tables or thresholds.
 *
 *   const sketch = new VisitorSketch();
 *   sketch.add(0x9e3779b9);
 *   VisitorSketch.decode(sketch.encode()).estimate(); // 1
 */

/** Register index bits: 2^15 registers. */
const precision = 15;
const registerCount = 1 << precision;
/** The bits left for the rank: a register holds 0..rankBits + 1. */
const rankBits = 32 - precision;
/** The sparse form holds up to this many values (about as many bytes as the dense form compresses to). */
export const sparseLimit = 4096;

const sparseFormat = 1;
const denseFormat = 2;

export class VisitorSketch {
  /** Distinct 32-bit values while sparse; `null` once dense. */
  private values: Set<number> | null = new Set();
  private registers: Uint8Array | null = null;

  get isSparse(): boolean {
    return this.values !== null;
  }

  get isEmpty(): boolean {
    return this.values !== null && this.values.size === 0;
  }

  /** `value`: an unsigned 32-bit visitor value. */
  add(value: number): void {
    if (this.values !== null) {
      this.values.add(value >>> 0);
      if (this.values.size > sparseLimit) this.densify();
      return;
    }
    addToRegisters(this.registers as Uint8Array, value >>> 0);
  }

  /** Adds every visitor of `other` (a union: a visitor in both counts once). */
  merge(other: VisitorSketch): void {
    if (other.values !== null) {
      for (const value of other.values) this.add(value);
      return;
    }
    if (this.values !== null) this.densify();
    const mine = this.registers as Uint8Array;
    const theirs = other.registers as Uint8Array;
    for (let index = 0; index < registerCount; index += 1) {
      if ((theirs[index] as number) > (mine[index] as number)) mine[index] = theirs[index] as number;
    }
  }

  /** Merges an encoded sketch without building it first (the export merges many). */
  mergeEncoded(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (bytes[0] === sparseFormat) {
      readSparse(bytes, (value) => this.add(value));
      return;
    }
    if (bytes[0] !== denseFormat || bytes.length !== registerCount + 1) {
      throw new RangeError('Not an encoded visitor sketch');
    }
    if (this.values !== null) this.densify();
    const mine = this.registers as Uint8Array;
    for (let index = 0; index < registerCount; index += 1) {
      const register = bytes[index + 1] as number;
      if (register > rankBits + 1) throw new RangeError('Not an encoded visitor sketch');
      if (register > (mine[index] as number)) mine[index] = register;
    }
  }

  /** The number of distinct visitors: exact while sparse, an estimate (≈0.57% error) once dense. */
  estimate(): number {
    if (this.values !== null) return this.values.size;
    return Math.round(estimateRegisters(this.registers as Uint8Array));
  }

  /**
   * Sparse: a format byte, then the values in ascending order as unsigned LEB128 varints of their
   * differences (a few bytes each). Dense: a format byte and one byte per register (PostgreSQL's
   * TOAST compression packs their few bits).
   */
  encode(): Buffer {
    if (this.values === null) {
      const bytes = Buffer.allocUnsafe(registerCount + 1);
      bytes[0] = denseFormat;
      bytes.set(this.registers as Uint8Array, 1);
      return bytes;
    }
    const sorted = Uint32Array.from(this.values).sort();
    const bytes: number[] = [sparseFormat];
    let previous = 0;
    for (const value of sorted) {
      let rest = value - previous;
      previous = value;
      while (rest >= 0x80) {
        bytes.push((rest & 0x7f) | 0x80);
        rest >>>= 7;
      }
      bytes.push(rest);
    }
    return Buffer.from(bytes);
  }

  static decode(bytes: Uint8Array): VisitorSketch {
    const sketch = new VisitorSketch();
    sketch.mergeEncoded(bytes);
    return sketch;
  }

  private densify(): void {
    const registers = new Uint8Array(registerCount);
    for (const value of this.values ?? []) addToRegisters(registers, value);
    this.values = null;
    this.registers = registers;
  }
}

function addToRegisters(registers: Uint8Array, value: number): void {
  const index = value >>> rankBits;
  const rest = value & ((1 << rankBits) - 1);
  // The rank: the position of the first 1 bit in the remaining bits; rankBits + 1 when all are 0.
  const rank = rest === 0 ? rankBits + 1 : Math.clz32(rest) - precision + 1;
  if (rank > (registers[index] as number)) registers[index] = rank;
}

function readSparse(bytes: Uint8Array, visit: (value: number) => void): void {
  let offset = 1;
  let previous = 0;
  while (offset < bytes.length) {
    let delta = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[offset];
      if (byte === undefined || scale > 2 ** 28) throw new RangeError('Truncated visitor sketch');
      offset += 1;
      delta += (byte & 0x7f) * scale;
      if (byte < 0x80) break;
      scale *= 0x80;
    }
    previous += delta;
    if (previous > 0xffffffff) throw new RangeError('Not an encoded visitor sketch');
    visit(previous);
  }
}

/** Ertl's improved raw estimator (arXiv:1702.01284, Algorithm 6). */
function estimateRegisters(registers: Uint8Array): number {
  const histogram = new Float64Array(rankBits + 2);
  for (const register of registers) histogram[register] = (histogram[register] ?? 0) + 1;
  const m = registerCount;
  let z = m * tau(1 - (histogram[rankBits + 1] as number) / m);
  for (let rank = rankBits; rank >= 1; rank -= 1) z = 0.5 * (z + (histogram[rank] as number));
  z += m * sigma((histogram[0] as number) / m);
  return (m * m) / (2 * Math.LN2 * z);
}

function sigma(x: number): number {
  if (x === 1) return Number.POSITIVE_INFINITY;
  let power = x;
  let y = 1;
  let z = x;
  for (;;) {
    power *= power;
    const previous = z;
    z += power * y;
    y += y;
    if (z === previous) return z;
  }
}

function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let root = x;
  let y = 1;
  let z = 1 - x;
  for (;;) {
    root = Math.sqrt(root);
    const previous = z;
    y *= 0.5;
    z -= (1 - root) ** 2 * y;
    if (z === previous) return z / 3;
  }
}
