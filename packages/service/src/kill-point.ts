import { ServiceUsageError } from './service-usage-error.js';

/**
 * Test hooks for the crash campaign (packages/cli/test/campaign): named points on the commit and
 * undo paths where a test can have the process SIGKILL itself, so a crash lands exactly inside a
 * store transaction or between an effect and its record, not wherever a timer happens to fire.
 *
 * Nothing here reads the environment: `parley serve` arms a point from PARLEY_TEST_KILL_POINT
 * (`name:n`, the n-th time the point is reached). Unarmed, `killPoint` costs one comparison.
 */

/** Every point, in the order a commit or an undo reaches them. */
export const KILL_POINTS = [
  /** Non-transactional COMMIT: reserved and recorded `applying`, before `apply`. */
  'commit.begun',
  /** Non-transactional COMMIT: `apply` returned (the effect is out), before the receipt is kept. */
  'commit.applied',
  /** Inside the store's commit transaction: `apply` wrote its data, nothing is committed yet. */
  'commit.in-transaction',
  /** SqliteStore: inside a group-commit batch, every unit run, before its one COMMIT. */
  'sqlite.batch',
  /** Either path: the commit is recorded `done` with its receipt, the reply not yet sent. */
  'commit.recorded',
  /** Non-transactional UNDO: `revert` returned, before the reversal is kept. */
  'undo.reverted',
  /** Inside the store's undo transaction: `revert` wrote its data, nothing is committed yet. */
  'undo.in-transaction',
  /** Either path: the reversal is recorded, the reply not yet sent. */
  'undo.recorded',
] as const;

export type KillPointName = (typeof KILL_POINTS)[number];

type Armed = { name: KillPointName; left: number };

/**
 * Where the armed point is kept: on globalThis, because a service module that `parley serve`
 * loads through tsx gets its own instance of this package, and the point must fire in both.
 */
const ARMED = Symbol.for('parley.kill-point');
const holder = globalThis as { [ARMED]?: Armed };

/**
 * Arms one point from `name:n` (n ≥ 1, default 1): the n-th time the process reaches it, it
 * kills itself with SIGKILL. Throws ServiceUsageError naming what is wrong with `spec`.
 */
export function armKillPoint(spec: string): void {
  const [name = '', count = '1', extra] = spec.split(':');
  if (!(KILL_POINTS as readonly string[]).includes(name) || extra !== undefined) {
    throw new ServiceUsageError(
      `kill point "${spec}" is not NAME[:N] with NAME one of ${KILL_POINTS.join(', ')}`,
    );
  }
  const left = Number(count);
  if (!Number.isSafeInteger(left) || left < 1) {
    throw new ServiceUsageError(`kill point "${spec}" needs a count of 1 or more after the colon`);
  }
  holder[ARMED] = { name: name as KillPointName, left };
}

/** Passes a named point: a no-op unless it is the armed one, reached for the n-th time. */
export function killPoint(name: KillPointName): void {
  const armed = holder[ARMED];
  if (armed === undefined || armed.name !== name) return;
  armed.left -= 1;
  if (armed.left === 0) process.kill(process.pid, 'SIGKILL');
}
