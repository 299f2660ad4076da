import { acquirePostgres, planPostgres } from '@parley/test-support';

/**
 * The PostgreSQL server a benchmark runs on: PARLEY_BENCH_DATABASE_URL, else the server the tests
 * would use (started if embedded, and stopped by `release`). Throws when there is none.
 */
export async function benchPostgres(): Promise<{ url: string; release(): Promise<void> }> {
  const url = process.env.PARLEY_BENCH_DATABASE_URL;
  if (url !== undefined) return { url, release: async () => undefined };
  const plan = await planPostgres();
  if (plan.kind === 'missing') {
    throw new Error(`no PostgreSQL for the benchmark: ${plan.missing.reason}`);
  }
  const acquired = await acquirePostgres(plan);
  console.log(`PostgreSQL: ${acquired.source}`);
  return acquired;
}
