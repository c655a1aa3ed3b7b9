/**
 * Exact visitors of a few hours, from their marks: every distinct (page, visitor) pair with the
 * groups it was seen in, in an open-addressing table of typed arrays. The export counts the
 * partial days at a range's edges this way (tens of thousands of marks a day); sorting the marks
 * as numbers cost it several times more, and a Map entry per pair more still.
 *
 *   const tally = new VisitorTally();
 *   tally.add(pathId, visitor, group); // and tally.add(sitePathId, visitor, group) for the site
 *   tally.addTo(sums);
 */
import type { VisitorCountSums } from './visitor-packing.ts';

export class VisitorTally {
  private pathIds: Int32Array;
  private visitors: Uint32Array;
  /** The groups of each pair as bits (1 << the group's `visitorGroups` index); 0: an empty slot. */
  private groups: Uint8Array;
  private size = 0;

  /** `expected`: about how many pairs will be added (the table grows past it, at a cost). */
  constructor(expected = 512) {
    this.pathIds = new Int32Array(0);
    this.visitors = new Uint32Array(0);
    this.groups = new Uint8Array(0);
    this.clear(expected);
  }

  /**
   * Empties the table for reuse, with room for about `expected` pairs: an export counts an edge of
   * megabytes of table, and allocating it anew for every request kept the garbage collector busy.
   */
  clear(expected: number): void {
    let capacity = 1024;
    while (capacity < expected * 2) capacity *= 2;
    // Kept when large enough, and not so large that one busy day's table stays in memory for good.
    if (this.groups.length >= capacity && this.groups.length <= capacity * 8) this.groups.fill(0);
    else {
      this.pathIds = new Int32Array(capacity);
      this.visitors = new Uint32Array(capacity);
      this.groups = new Uint8Array(capacity);
    }
    this.size = 0;
  }

  /** Records that `visitor` (32 bits) read `pathId` in group `group` (a `visitorGroups` index). */
  add(pathId: number, visitor: number, group: number): void {
    this.merge(pathId, visitor, 1 << group);
    if (this.size * 2 > this.groups.length) this.grow();
  }

  /** Adds each pair's visitor to its page's counts in `sums`. */
  addTo(sums: VisitorCountSums): void {
    for (let slot = 0; slot < this.groups.length; slot += 1) {
      const groups = this.groups[slot] as number;
      if (groups !== 0) sums.addVisitor(this.pathIds[slot] as number, groups);
    }
  }

  private merge(pathId: number, visitor: number, bits: number): void {
    const mask = this.groups.length - 1;
    // Visitor values are keyed hashes: their low bits spread pairs evenly without more hashing.
    let slot = (visitor ^ Math.imul(pathId, 0x9e3779b1)) & mask;
    for (;;) {
      const groups = this.groups[slot] as number;
      if (groups === 0) break;
      if (this.visitors[slot] === visitor && this.pathIds[slot] === pathId) {
        this.groups[slot] = groups | bits;
        return;
      }
      slot = (slot + 1) & mask;
    }
    this.pathIds[slot] = pathId;
    this.visitors[slot] = visitor;
    this.groups[slot] = bits;
    this.size += 1;
  }

  private grow(): void {
    const { pathIds, visitors, groups } = this;
    this.pathIds = new Int32Array(groups.length * 2);
    this.visitors = new Uint32Array(groups.length * 2);
    this.groups = new Uint8Array(groups.length * 2);
    this.size = 0;
    for (let slot = 0; slot < groups.length; slot += 1) {
      if (groups[slot] !== 0)
        this.merge(pathIds[slot] as number, visitors[slot] as number, groups[slot] as number);
    }
  }
}
