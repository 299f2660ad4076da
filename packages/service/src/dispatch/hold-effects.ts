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

/** The updates of `effects` that declare the side `side`, with the reader of the capability. */
function updates(definition: IntentDefinition, effects: readonly Effect[], side: 'from' | 'to') {
  const how = definition.current;
  const read = how === undefined ? undefined : how === 'data' ? readData : how;
  const checked = effects.filter((e) => e.op === 'update' && e[side] !== undefined);
  return { read, checked };
}

const named = (effect: Effect): string =>
  effect.field === undefined ? effect.target : `${effect.target}.${effect.field}`;

/** A missing value reads as null: an update from null declares that nothing was there. */
const same = (now: JsonScalar | undefined, declared: JsonScalar | undefined): boolean =>
  (now ?? null) === (declared ?? null);

/**
 * §5.1: holds the world to what an update declared on side `side` (`from` before a commit, `to`
 * before its undo): answers `conflict` naming the first value that moved.
 */
export async function holdDeclared(
  definition: IntentDefinition,
  effects: readonly Effect[],
  side: 'from' | 'to',
  data: DataAccess,
): Promise<void> {
  const { read, checked } = updates(definition, effects, side);
  if (read === undefined) return;
  for (const effect of checked) {
    const now = await read(effect, data);
    if (same(now, effect[side])) continue;
    const action = side === 'from' ? 're-run the INTENT' : 'the commit cannot be undone';
    throw new ParleyError(
      'conflict',
      `${named(effect)} is ${quoteInput(now ?? null)} now, not ${quoteInput(effect[side])} as when ${side === 'from' ? 'this was proposed' : 'it was committed'}; ${action} (§5.1)`,
    );
  }
}

/**
 * §5.1 "no effects beyond those declared": after a transactional apply (or revert), every update
 * must read the `to` it declared; otherwise throws UndeclaredEffectError, which rolls it back.
 */
export async function checkDeclaredTo(
  definition: IntentDefinition,
  capability: string,
  effects: readonly Effect[],
  data: DataAccess,
): Promise<void> {
  const { read, checked } = updates(definition, effects, 'to');
  if (read === undefined) return;
  for (const effect of checked) {
    const now = await read(effect, data);
    if (same(now, effect.to)) continue;
    throw new UndeclaredEffectError(
      `${capability}: ${named(effect)} became ${JSON.stringify(now ?? null)}, not the declared ${JSON.stringify(effect.to)} (§5.1)`,
    );
  }
}
