// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, dropSchema, freshSchema } from '../../../store-postgres/test/database.js';
import { campaignSettings, formatReport } from './campaign-settings.js';
import { runCampaign } from './driver.js';

/** Kill points of the run in `npm test`; `npm run campaign` runs hundreds (run-campaign.ts). */
const SHORT_RUN_KILLS = 10;
const folder = mkdtempSync(join(tmpdir(), 'parley-campaign-'));
const schema = freshSchema();
afterAll(async () => {
  await dropSchema(schema);
  rmSync(folder, { recursive: true, force: true });
});

describe('§4.4, §4.3.1, §4.5, §6.3 crash campaign on PostgresStore (issue 11)', () => {
  it('survives a short run of SIGKILLs of two instances: nothing twice, no receipt lost, in-doubt listed, caps exact', async () => {
    const { seed, kills } = campaignSettings(process.env, SHORT_RUN_KILLS);
    const url = new URL(DATABASE_URL);
    url.searchParams.set('schema', schema);
    const report = await runCampaign({
      seed,
      kills,
      store: { kind: 'postgres', url: url.toString() },
      folder,
      // Two instances on the one schema: a COMMIT or UNDO sent twice at once races across them.
      instances: 2,
    });
    expect(report.violations, formatReport(report)).toEqual([]);
    expect(report.kills).toBe(kills);
    expect(report.invariantChecks).toBeGreaterThan(0);
  }, 300_000);
});
