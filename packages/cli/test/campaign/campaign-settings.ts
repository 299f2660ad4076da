import type { CampaignReport } from './driver.js';

/**
 * CAMPAIGN_SEED and CAMPAIGN_KILLS: the seed (default: a fresh one, printed with every report)
 * and how many lives end in a kill (default `kills`). Each names itself when it is malformed.
 */
export function campaignSettings(
  env: NodeJS.ProcessEnv,
  kills: number,
): { seed: number; kills: number } {
  return {
    seed: integerSetting(env, 'CAMPAIGN_SEED', Math.floor(Math.random() * 4_294_967_296), 0),
    kills: integerSetting(env, 'CAMPAIGN_KILLS', kills, 1),
  };
}

function integerSetting(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > 4_294_967_295) {
    throw new RangeError(`${name} must be an integer from ${min} to 4294967295, not "${text}"`);
  }
  return value;
}

/** The report as lines; a failing run starts with the seed that replays its choices. */
export function formatReport(report: CampaignReport): string {
  const kills = Object.entries(report.killedAt)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([how, n]) => `${how} ${n}`)
    .join(', ');
  return [
    `campaign on ${report.store}: CAMPAIGN_SEED=${report.seed} CAMPAIGN_KILLS=${report.kills}`,
    `  kill points ${report.kills} (${kills}); restarts ${report.restarts}`,
    `  requests ${report.requests} (lost ${report.lost}, retries ${report.retries}, replays compared ${report.replaysCompared})`,
    `  receipts ${report.receipts}, reversals ${report.reversals}`,
    `  in doubt: ${report.inDoubtCommits} commits, ${report.inDoubtUndos} undos; invariant checks ${report.invariantChecks}`,
    `  duration ${(report.durationMs / 1000).toFixed(1)} s; violations ${report.violations.length}`,
    ...report.violations.slice(0, 20).map((line) => `  ! ${line}`),
  ].join('\n');
}
