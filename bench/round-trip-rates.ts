/**
 * Measuring kit of the round-trip benchmarks (transport, end to end, MCP): operations per second,
 * best of BENCH_ROUNDS rounds of BENCH_MS each, the contenders taking turns round by round so load
 * on the machine hits them alike. Wall time, since some contenders run in child processes.
 */

export const ROUND_MS = Number(process.env.BENCH_MS ?? 1000);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Requests in flight for the pipelined runs. */
export const PIPELINE = 64;

/** A contender: runs until the deadline (performance.now() ms) and says how many ops it did. */
export type Run = (until: number) => Promise<number>;

/** Each run's ops per second in every round (`rounds[r][i]`), and its best. */
export type RoundRates = { best: number[]; rounds: number[][] };

/** Ops per second of each run in ROUNDS rounds, after a short warm-up round each. */
export async function roundRates(...runs: Run[]): Promise<RoundRates> {
  const result: RoundRates = { best: runs.map(() => 0), rounds: [] };
  for (const run of runs) await run(performance.now() + ROUND_MS / 4);
  for (let r = 0; r < ROUNDS; r++) {
    const row: number[] = [];
    for (const run of runs) {
      const start = performance.now();
      const ops = await run(start + ROUND_MS);
      row.push((ops * 1000) / (performance.now() - start));
    }
    result.rounds.push(row);
    result.best = result.best.map((best, i) => Math.max(best, row[i] ?? 0));
  }
  return result;
}

/** Ops per second of each run: best of ROUNDS rounds, after a short warm-up round each. */
export async function rates(...runs: Run[]): Promise<number[]> {
  return (await roundRates(...runs)).best;
}

/**
 * The middle of run `of` over run `to`, round by round: each pair ran back to back, so one lucky
 * round of either side does not make the ratio (a ratio of bests can take each from another round).
 */
export function pairedMedian(measured: RoundRates, of: number, to: number): number {
  const ratios = measured.rounds
    .map((row) => (row[of] ?? 0) / (row[to] || 1))
    .sort((a, b) => a - b);
  return ratios[Math.floor(ratios.length / 2)] ?? 0;
}

/** One call at a time. */
export function sequential(call: () => Promise<unknown>): Run {
  return async (until) => {
    let ops = 0;
    while (performance.now() < until) {
      await call();
      ops++;
    }
    return ops;
  };
}

/** PIPELINE calls in flight; each completion starts the next. */
export function pipelined(call: () => Promise<unknown>): Run {
  return async (until) => {
    let ops = 0;
    const lane = async (): Promise<void> => {
      while (performance.now() < until) {
        await call();
        ops++;
      }
    };
    await Promise.all(Array.from({ length: PIPELINE }, lane));
    return ops;
  };
}

/** 12345.6 -> "12,346". */
export const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');
/** a / b with two decimals. */
export const ratio = (a: number, b: number): string => (b === 0 ? '-' : (a / b).toFixed(2));
