/**
 * The campaign's only source of chance: a seeded generator (mulberry32), so CAMPAIGN_SEED
 * replays the same choices. Interleavings across agents and processes still vary from run to
 * run; the seed fixes what each agent does and where each life is killed.
 */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  bytes(n: number): Uint8Array {
    return Uint8Array.from({ length: n }, () => Math.floor(this.next() * 256));
  }

  /** A frame id with 64 bits from the generator (§4.3.1: unique per agent key). */
  frameId(prefix: string): string {
    return `${prefix}-${Buffer.from(this.bytes(8)).toString('hex')}`;
  }

  /** A generator of its own for a sub-task, so one task's draws do not shift another's. */
  fork(): SeededRandom {
    return new SeededRandom(Math.floor(this.next() * 4_294_967_296));
  }
}
