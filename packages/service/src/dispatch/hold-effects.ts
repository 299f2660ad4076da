import {
  type Effect,
  isPlainObject,
  type JsonScalar,
  ownValue,
  ParleyError,
} from '@parley/protocol';
import type { CurrentValue, IntentDefinition } from '../capability.js';
import { quoteInput } from '../quote-input.js';
import type { DataAccess } from '../store/store.js';

/**
 * §5.1: a capability with `current` is held to the update effects it declares: each `from` is
 * what the value was, each `to` what it becomes. A service must not perform effects beyond
 * those declared, and the person approved these values.
 */

/** An apply or revert changed a value to something its effects did not declare: a service bug. */
export class UndeclaredEffectError extends Error {
  override readonly name = 'UndeclaredEffectError';
}

/** `current: 'data'`: the member `field` of the JSON object under key `target`. */
const readData: CurrentValue = async (effect, data) => {
  if (effect.field === undefined) return undefined;
  const stored = await data.get(effect.target);
  return isPlainObject(stored)
    ? (ownValue(stored, effect.field) as JsonScalar | undefined)
    : undefined;
};

function readerOf(definition: IntentDefinition): CurrentValue | undefined {
  const how = definition.current;
  return how === 'data' ? readData : how;
}

/**
 * Whether holdFrom and checkTo have anything to read for `effects`: a capability with `current`
 * and an update among them. A COMMIT without both skips them, and their turns of the microtask
 * queue (bench/RESULTS.md, issue 27 at stop 42).
 */
export function holdsUpdates(definition: IntentDefinition, effects: readonly Effect[]): boolean {
  return readerOf(definition) !== undefined && effects.some((e) => e.op === 'update');
}

const updatesWith = (effects: readonly Effect[], side: 'from' | 'to'): Effect[] =>
  effects.filter((e) => e.op === 'update' && e[side] !== undefined);

const named = (effect: Effect): string =>
  effect.field === undefined ? effect.target : `${effect.target}.${effect.field}`;

/** What an update changes: its target and field (a plan declares one update of each, draft.ts). */
const slotOf = (effect: Effect): string => JSON.stringify([effect.target, effect.field ?? null]);

/** A missing value reads as null: an update from null declares that nothing was there. */
const same = (now: JsonScalar | undefined, declared: JsonScalar | undefined): boolean =>
  (now ?? null) === (declared ?? null);

/** The first update declaring `side` whose value does not read as declared now, and that value. */
async function firstAmiss(
  definition: IntentDefinition,
  effects: readonly Effect[],
  side: 'from' | 'to',
  data: DataAccess,
): Promise<{ effect: Effect; now: JsonScalar | undefined } | undefined> {
  const read = readerOf(definition);
  if (read === undefined) return undefined;
  for (const effect of updatesWith(effects, side)) {
    const now = await read(effect, data);
    if (!same(now, effect[side])) return { effect, now };
  }
  return undefined;
}

/**
 * COMMIT, before apply: every update that declares a `from` must still read it, or the world
 * moved since the proposal was made: `conflict`, naming the first value that moved.
 */
export async function holdFrom(
  definition: IntentDefinition,
  effects: readonly Effect[],
  data: DataAccess,
): Promise<void> {
  const amiss = await firstAmiss(definition, effects, 'from', data);
  if (amiss === undefined) return;
  throw new ParleyError(
    'conflict',
    `${named(amiss.effect)} is ${quoteInput(amiss.now ?? null)} now, not ${quoteInput(amiss.effect.from)} as when this was proposed; re-run the INTENT (§5.1)`,
  );
}

/** The values the updates among `effects` read now, by what they change (before a revert). */
export async function valuesBefore(
  definition: IntentDefinition,
  effects: readonly Effect[],
  data: DataAccess,
): Promise<Map<string, JsonScalar | undefined>> {
  const read = readerOf(definition);
  const before = new Map<string, JsonScalar | undefined>();
  if (read === undefined) return before;
  for (const effect of effects) {
    if (effect.op === 'update') before.set(slotOf(effect), await read(effect, data));
  }
  return before;
}

/**
 * UNDO, after a transactional revert: every update of the reversal whose value was read before
 * it must declare that value as its `from` (the default reversal declares the commit's `to`),
 * or the world moved since the commit: `conflict`, and the revert is rolled back.
 */
export function holdReversalFrom(
  effects: readonly Effect[],
  before: ReadonlyMap<string, JsonScalar | undefined>,
): void {
  for (const effect of updatesWith(effects, 'from')) {
    const slot = slotOf(effect);
    if (!before.has(slot)) continue;
    const was = before.get(slot);
    if (same(was, effect.from)) continue;
    throw new ParleyError(
      'conflict',
      `${named(effect)} is ${quoteInput(was ?? null)} now, not ${quoteInput(effect.from)} as when it was committed; the commit cannot be undone (§5.1)`,
    );
  }
}

/**
 * After a transactional apply or revert: every update must read the `to` it declared; otherwise
 * UndeclaredEffectError, which rolls the transaction back.
 */
export async function checkTo(
  definition: IntentDefinition,
  capability: string,
  effects: readonly Effect[],
  data: DataAccess,
): Promise<void> {
  const amiss = await firstAmiss(definition, effects, 'to', data);
  if (amiss === undefined) return;
  throw new UndeclaredEffectError(
    `${capability}: ${named(amiss.effect)} became ${JSON.stringify(amiss.now ?? null)}, not the declared ${JSON.stringify(amiss.effect.to)} (§5.1)`,
  );
}
