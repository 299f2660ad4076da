import { KILL_POINTS, type KillPointName } from '@parley/service';
import type { SeededRandom } from '../fixtures/seeded-random.js';
import type { StoreTarget } from './served-ledger.js';

/**
 * Where one life of the service ends: at a named hook (the n-th time the commit path reaches
 * it, @parley/service kill-point.ts), or by our SIGKILL after some milliseconds of traffic,
 * wherever the service happens to be then.
 */
export type KillPlan =
  | { kind: 'hook'; point: KillPointName; n: number }
  | { kind: 'timed'; afterMs: number };

/** The share of lives ended by a hook; the rest are timed. */
const HOOK_SHARE = 0.75;

/** A kill plan drawn from `random`; `sqlite.batch` only where there is a SQLite batch. */
export function drawKill(random: SeededRandom, store: StoreTarget['kind']): KillPlan {
  if (!random.chance(HOOK_SHARE)) return { kind: 'timed', afterMs: random.int(5, 400) };
  const points = KILL_POINTS.filter((point) => store === 'sqlite' || point !== 'sqlite.batch');
  const point = random.pick(points);
  // Every write is a batch, so the n-th batch lands anywhere in the traffic; the other points
  // are reached once per commit or undo of their kind.
  return {
    kind: 'hook',
    point,
    n: point === 'sqlite.batch' ? random.int(1, 30) : random.int(1, 3),
  };
}

/** The PARLEY_TEST_KILL_POINT value of a plan, if it has one. */
export function killPointSpec(plan: KillPlan): string | undefined {
  return plan.kind === 'hook' ? `${plan.point}:${plan.n}` : undefined;
}

/** A short name for the report: the hook's name, or `timed`. */
export function killLabel(plan: KillPlan): string {
  return plan.kind === 'hook' ? plan.point : 'timed';
}
