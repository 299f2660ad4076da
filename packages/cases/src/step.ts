import { CaseError } from './errors.js';
import {
  type CaseRecord,
  type CaseState,
  type Clock,
  isTerminal,
  type PartyPrivate,
  type SharedCase,
} from './record.js';

/** Who acts: a party id, or `organizer`. */
export type Actor = string;

/**
 * The record after one step: the shared part patched, private parts replaced where given, the
 * version bumped and the event appended (module 01: actor, time, prior version, type).
 */
export function step(
  record: CaseRecord,
  event: { readonly actor: Actor; readonly type: string; readonly clock: Clock },
  shared: Partial<Omit<SharedCase, 'version' | 'events' | 'updated_at'>>,
  privates: Readonly<Record<string, PartyPrivate>> = {},
): CaseRecord {
  const prior = record.shared.version;
  return {
    shared: {
      ...record.shared,
      ...shared,
      version: prior + 1,
      updated_at: event.clock.now,
      events: [
        ...record.shared.events,
        { at: event.clock.now, actor: event.actor, type: event.type, prior_version: prior },
      ],
    },
    privates: { ...record.privates, ...privates },
  };
}

/** Refuses unless the case is in one of `states` (terminal cases never move again). */
export function requireState(record: CaseRecord, states: readonly CaseState[], act: string): void {
  const state = record.shared.state;
  if (!states.includes(state)) {
    throw new CaseError(
      'wrong_state',
      isTerminal(state)
        ? `the case is ${state}: nothing can ${act} any more`
        : `the case is ${state}: it cannot ${act} now`,
    );
  }
}

/** The private part of `party`, which must exist. */
export function privateOf(record: CaseRecord, party: string): PartyPrivate {
  const own = Object.hasOwn(record.privates, party) ? record.privates[party] : undefined;
  if (own === undefined) throw new CaseError('not_found', 'no such party in this case');
  return own;
}
