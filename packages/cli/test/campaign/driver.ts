import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { publicKeyString } from '@parley/protocol';
import { type AgentRun, exchange, learn, step } from './agent-steps.js';
import { type Agent, grantRound, seededKey } from './agents.js';
import { Book } from './book.js';
import { checkInvariants } from './invariants.js';
import { drawKill, type KillPlan, killLabel, killPointSpec } from './kill-plan.js';
import { SeededRandom } from './seeded-random.js';
import {
  compileLedgerService,
  FrameLink,
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
  log?: (line: string) => void;
};

export type CampaignReport = {
  store: StoreTarget['kind'];
  seed: number;
  kills: number;
  /** How many lives ended at each hook, by our timed SIGKILL, or by ours after a hook stayed quiet. */
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
      const how = await live(settings, plan, runs, book, options.stepsPerLife ?? 12);
      restarts += 1;
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

/**
 * One life: start (armed with the plan's hook), retry what is unanswered, let every agent step
 * until the service dies or the steps run out, and make sure it dies. Returns how it died.
 */
async function live(
  settings: ServeSettings,
  plan: KillPlan,
  runs: AgentRun[],
  book: Book,
  steps: number,
): Promise<string> {
  const service = await ServedLedger.start(settings, killPointSpec(plan));
  let killedByUs = false;
  const timer =
    plan.kind === 'timed'
      ? setTimeout(() => {
          killedByUs = true;
          void service.kill();
        }, plan.afterMs)
      : undefined;
  // Whether some agent lost its connection: then the service is dying, whoever killed it.
  let died = false;
  const links: FrameLink[] = [];
  try {
    await Promise.all(
      runs.map(async (run) => {
        const pair = [
          await FrameLink.open(service.address),
          await FrameLink.open(service.address),
        ] as const;
        links.push(...pair);
        for (const sent of run.frames.filter((frame) => frame.first === undefined)) {
          if (!(await exchange(book, sent, pair[0]))) {
            died = true;
            return;
          }
          learn(run, sent);
        }
        for (let i = 0; i < steps && !died; i++) {
          if (!(await step(run, pair, book))) died = true;
        }
      }),
    );
  } catch (error) {
    // A refused connection: the service died while the links opened.
    died = true;
    if (service.running) throw error;
  } finally {
    clearTimeout(timer);
  }
  if (!died) {
    killedByUs = true;
    await service.kill();
  }
  const signal = await service.ended;
  for (const link of links) link.close();
  if (signal !== 'SIGKILL') throw new Error(`the service ended by ${signal}, not a kill`);
  if (plan.kind === 'hook' && killedByUs) return `${killLabel(plan)} (not reached)`;
  return killLabel(plan);
}
