import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { campaignSettings, formatReport } from './campaign-settings.js';
import { runCampaign } from './driver.js';

/** Kill points of the run in `npm test`; `npm run campaign` runs hundreds (run-campaign.ts). */
const SHORT_RUN_KILLS = 10;
const folder = mkdtempSync(join(tmpdir(), 'parley-campaign-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('§4.4, §4.3.1, §4.5, §6.3 crash campaign on SqliteStore (issue 11)', () => {
  it('survives a short run of SIGKILLs: nothing twice, no receipt lost, in-doubt listed, caps exact', async () => {
    const { seed, kills } = campaignSettings(process.env, SHORT_RUN_KILLS);
    const report = await runCampaign({
      seed,
      kills,
      store: { kind: 'sqlite', folder: join(folder, 'data') },
      folder,
    });
    expect(report.violations, formatReport(report)).toEqual([]);
    expect(report.kills).toBe(kills);
    expect(report.invariantChecks).toBeGreaterThan(0);
  }, 300_000);
});
