/**
 * Timing for the @parley/service benchmark: a round measures one contender for about `ms`
 * milliseconds of wall time and returns its operations per second. Wall time, not CPU time: a
 * durable commit waits on fsync, which is exactly what is being measured.
 */
export type Round = (ms: number) => Promise<number>;

/** Each contender's rate in every round (`rounds[r][i]`) and its best. */
export type Rates = { best: number[]; rounds: number[][] };

/**
 * Every contender's rate over `rounds` rounds, after a short warm-up. Contenders take turns round
 * by round, so a figure and its limit see the same load on a shared machine.
 */
export async function bestOf(
  rounds: number,
  ms: number,
  contenders: readonly Round[],
): Promise<Rates> {
  for (const round of contenders) await round(ms / 4);
  const rates: Rates = { best: contenders.map(() => 0), rounds: [] };
  for (let r = 0; r < rounds; r++) {
    const row: number[] = [];
    for (const round of contenders) row.push(await round(ms));
    rates.rounds.push(row);
    rates.best = rates.best.map((best, i) => Math.max(best, row[i] ?? 0));
  }
  return rates;
}

/**
 * Contender `of` over contender `to`, round by round: each pair ran back to back, so a ratio
 * holds even when the machine (or its disk) changes speed between rounds.
 */
export function pairedRatios(rates: Rates, of: number, to: number): number[] {
  return rates.rounds.map((row) => (row[of] ?? 0) / (row[to] ?? 1));
}

/** The smallest, middle and largest of some values. */
export function spread(values: readonly number[]): { min: number; median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { min: at(0), median: at(0.5), max: at(1) };
}

/** A round that repeats `op` one at a time until the time is up. */
export function repeated(op: () => Promise<unknown>): Round {
  return async (ms) => {
    const start = performance.now();
    const until = start + ms;
    let ops = 0;
    while (performance.now() < until) {
      await op();
      ops++;
    }
    return (ops * 1000) / (performance.now() - start);
  };
}

/**
 * A round over `count` operations prepared before the clock starts (`prepare` is not timed), run
 * `lanes` at a time. The count follows the last measured rate so a round lasts about `ms`.
 */
export function batched<T>(
  lanes: number,
  prepare: (count: number) => Promise<T[]>,
  run: (item: T) => Promise<unknown>,
): Round {
  let rate = 200;
  return async (ms) => {
    const items = await prepare(Math.max(50, Math.round((rate * ms) / 1000)));
    const start = performance.now();
    await inLanes(lanes, items, run);
    rate = (items.length * 1000) / (performance.now() - start);
    return rate;
  };
}

/** Runs `run` over every item with `lanes` in flight; each completion starts the next. */
export async function inLanes<T>(
  lanes: number,
  items: readonly T[],
  run: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}
