import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { publicKeyString } from '@parley/protocol';
import { SeededRandom } from '../fixtures/seeded-random.js';
import type { AgentRun } from './agent-steps.js';
import { type Agent, grantRound, seededKey } from './agents.js';
import { Book } from './book.js';
import { checkInvariants } from './invariants.js';
import { drawKill } from './kill-plan.js';
import { live } from './life.js';
import {
  compileLedgerService,
  ServedLedger,
  type ServeSettings,
  type StoreTarget,
} from './served-ledger.js';
import { type Settled, settleRound } from './settle-round.js';

export type CampaignOptions = {
  seed: number;
  /** How many lives end in a kill, in all. */
  kills: number;
  store: StoreTarget;
  /** A folder of the campaign's own: the external ledger and PARLEY_HOME go there. */
  folder: string;
  /** Lives between two settles (each settle checks every invariant). Default 12. */
  livesPerRound?: number;
  agents?: number;
  /** Steps each agent takes in one life, at most. */
  stepsPerLife?: number;
  /**
   * Service instances per life on the one store (PostgreSQL: several may share it). With two,
   * each agent's second link goes to the other instance, so a COMMIT or UNDO sent twice at once
   * races across processes. Default 1.
   */
  instances?: number;
  log?: (line: string) => void;
};

export type CampaignReport = {
  store: StoreTarget['kind'];
  seed: number;
  kills: number;
  /**
   * How many lives ended at each hook, by our timed SIGKILL, or by ours after a hook stayed quiet.
   */
  killedAt: Record<string, number>;
  restarts: number;
  requests: number;
  lost: number;
  retries: number;
  replaysCompared: number;
  /** Commit receipts and reversals the agents were shown. */
  receipts: number;
  reversals: number;
  inDoubtCommits: number;
  inDoubtUndos: number;
  invariantChecks: number;
  durationMs: number;
  violations: string[];
};

/**
 * The crash campaign: `parley serve ./ledger-service.ts` as a child process, agents sending a
 * seeded mix of INTENT, auto INTENT, COMMIT, UNDO and retries, and the service killed in every
 * life (at a hook or by a timer). After each kill the service restarts and every unanswered
 * frame is sent again, unchanged; every `livesPerRound` lives a clean life retries every frame
 * of the round and the invariants are checked against the store and the external ledger.
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  try {
    return await campaign(options);
  } catch (error) {
    // The seed replays the choices that led here.
    throw new Error(
      `the campaign on ${options.store.kind} with CAMPAIGN_SEED=${options.seed} failed: ${String(error)}`,
      { cause: error },
    );
  }
}

async function campaign(options: CampaignOptions): Promise<CampaignReport> {
  const started = Date.now();
  const random = new SeededRandom(options.seed);
  const principal = await seededKey(random);
  const team = await seededKey(random);
  const keys = await Promise.all(
    Array.from({ length: options.agents ?? 3 }, () => seededKey(random)),
  );
  mkdirSync(join(options.folder, 'home'), { recursive: true });
  const settings: ServeSettings = {
    store: options.store,
    principal: publicKeyString(principal),
    ledger: join(options.folder, 'ledger.ndjson'),
    home: join(options.folder, 'home'),
    module: compileLedgerService(options.folder),
  };
  const book = new Book();
  const settled: Settled = { inDoubt: new Set(), autoInDoubt: 0, undoInDoubt: new Set() };
  const killedAt: Record<string, number> = {};
  const log = options.log ?? (() => {});
  let restarts = 0;
  let checks = 0;
  let left = options.kills;
  for (let round = 0; left > 0; round++) {
    const agents = await grantRound(principal, team, keys, round);
    const runs = agents.map((agent) => agentRun(agent, random.fork()));
    const lives = Math.min(options.livesPerRound ?? 12, left);
    for (let life = 0; life < lives; life++) {
      const plan = drawKill(random, options.store.kind);
      const how = await live(settings, plan, runs, book, {
        steps: options.stepsPerLife ?? 12,
        instances: options.instances ?? 1,
      });
      restarts += options.instances ?? 1;
      killedAt[how] = (killedAt[how] ?? 0) + 1;
      log(`round ${round} life ${life}: ${how}`);
    }
    left -= lives;
    const service = await ServedLedger.start(settings);
    restarts += 1;
    await settleRound(service, runs, book, settled);
    await service.stop();
    const result = await checkInvariants(options.store, settings.ledger, book, settled);
    checks += result.checks;
    book.violations.push(...result.violations);
    log(`round ${round} settled: ${result.checks} checks, ${book.violations.length} violations`);
    if (book.violations.length > 0) break;
  }
  return {
    store: options.store.kind,
    seed: options.seed,
    kills: options.kills - left,
    killedAt,
    restarts,
    ...book.figures,
    receipts: book.receipts.size,
    reversals: book.reversals.size,
    inDoubtCommits: settled.inDoubt.size + settled.autoInDoubt,
    inDoubtUndos: settled.undoInDoubt.size,
    invariantChecks: checks,
    durationMs: Date.now() - started,
    violations: book.violations,
  };
}

function agentRun(agent: Agent, random: SeededRandom): AgentRun {
  return { agent, random, open: [], frames: [] };
}
