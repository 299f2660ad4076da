import { type AgentRun, exchange, learn, step } from './agent-steps.js';
import type { Book } from './book.js';
import { type KillPlan, killLabel, killPointSpec } from './kill-plan.js';
import { FrameLink, ServedLedger, type ServeSettings } from './served-ledger.js';

/** How long a lost connection waits for its process to be seen gone. */
const DEATH_GRACE_MS = 10_000;
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * One life of the service: start its instances (each armed with the plan's hook), retry every
 * unanswered frame unchanged, let every agent step until an instance dies or the steps run out,
 * then kill whatever still runs. Returns how the life ended: the hook's name, `timed`, or the
 * hook's name with "(not reached)" when the steps ran out first.
 */
export async function live(
  settings: ServeSettings,
  plan: KillPlan,
  runs: AgentRun[],
  book: Book,
  shape: { steps: number; instances: number },
): Promise<string> {
  const services = await Promise.all(
    Array.from({ length: shape.instances }, () =>
      ServedLedger.start(settings, killPointSpec(plan)),
    ),
  );
  const killAll = () => Promise.all(services.map((service) => service.kill()));
  const timer = plan.kind === 'timed' ? setTimeout(killAll, plan.afterMs) : undefined;
  // Whether some agent lost a connection: an instance is dying, whoever killed it.
  let died = false;
  const links: FrameLink[] = [];
  try {
    await Promise.all(
      runs.map(async (run, i) => {
        const first = services[i % services.length] as ServedLedger;
        const second = services[(i + 1) % services.length] as ServedLedger;
        const pair = [
          await FrameLink.open(first.address),
          await FrameLink.open(second.address),
        ] as const;
        links.push(...pair);
        for (const sent of run.frames.filter((frame) => frame.first === undefined)) {
          if (!(await exchange(book, sent, pair[0]))) {
            died = true;
            return;
          }
          learn(run, sent);
        }
        for (let n = 0; n < shape.steps && !died; n++) {
          if (!(await step(run, pair, book))) died = true;
        }
      }),
    );
  } catch (error) {
    // A refused connection: an instance died while the links opened.
    died = true;
    if (services.every((service) => service.running)) throw error;
  } finally {
    clearTimeout(timer);
  }
  if (died) {
    // Let the instance that died be seen to end before the others are killed.
    await Promise.race([...services.map((service) => service.ended), delay(DEATH_GRACE_MS)]);
  }
  const fired = services.some((service) => !service.running && !service.killedByUs);
  const signals = await killAll();
  for (const link of links) link.close();
  const odd = signals.find((signal) => signal !== 'SIGKILL');
  if (odd !== undefined) throw new Error(`an instance ended by ${odd}, not a kill`);
  if (plan.kind === 'hook' && !fired) return `${killLabel(plan)} (not reached)`;
  return killLabel(plan);
}
