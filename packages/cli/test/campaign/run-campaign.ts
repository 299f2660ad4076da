/**
 * The long crash campaign, `npm run campaign` (after `npm run build`): hundreds of kill points on
 * SqliteStore, then on PostgresStore with two instances sharing it (the tests' server:
 * PARLEY_TEST_PG, the system's, or the embedded one). CAMPAIGN_SEED fixes the choices,
 * CAMPAIGN_KILLS the kill points per store
 * (default 300), CAMPAIGN_STORES which stores (default `sqlite,postgres`). Exits 1 on a violation,
 * after printing the report and the seed that replays it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquirePostgres, planPostgres } from '@parley/test-support';
import pg from 'pg';
import { campaignSettings, formatReport } from './campaign-settings.js';
import { type CampaignReport, runCampaign } from './driver.js';

const LONG_RUN_KILLS = 300;
const { seed, kills } = campaignSettings(process.env, LONG_RUN_KILLS);
const stores = (process.env.CAMPAIGN_STORES ?? 'sqlite,postgres').split(',');
const unknown = stores.find((store) => store !== 'sqlite' && store !== 'postgres');
if (unknown !== undefined) {
  throw new RangeError(`CAMPAIGN_STORES lists sqlite and postgres, not "${unknown}"`);
}
console.log(
  `crash campaign: node ${process.version}, load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);

const reports: CampaignReport[] = [];
const log = (line: string): void => {
  if (process.env.CAMPAIGN_VERBOSE === '1') console.log(line);
};
for (const store of stores) {
  const folder = mkdtempSync(join(tmpdir(), `parley-campaign-${store}-`));
  try {
    if (store === 'sqlite') {
      reports.push(
        await runCampaign({
          seed,
          kills,
          folder,
          log,
          store: { kind: 'sqlite', folder: join(folder, 'data') },
        }),
      );
    } else {
      reports.push(
        await onPostgres((url) =>
          runCampaign({ seed, kills, folder, log, store: { kind: 'postgres', url }, instances: 2 }),
        ),
      );
    }
    console.log(formatReport(reports[reports.length - 1] as CampaignReport));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
console.log(
  `load average after: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
if (reports.some((report) => report.violations.length > 0)) process.exit(1);

/** Runs `work` on a schema of its own in the tests' PostgreSQL, dropped afterwards. */
async function onPostgres<T>(work: (url: string) => Promise<T>): Promise<T> {
  const plan = await planPostgres();
  if (plan.kind === 'missing') throw new Error(`no PostgreSQL: ${plan.missing.reason}`);
  const server = await acquirePostgres(plan);
  const schema = `parley_campaign_${randomBytes(6).toString('hex')}`;
  const url = new URL(server.url);
  url.searchParams.set('schema', schema);
  try {
    return await work(url.toString());
  } finally {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    await server.release();
  }
}
