import { grantId, type Verb } from '@parley/protocol';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Store } from '../../src/index.js';
import { commandArbs } from './commands.js';
import { newTally, type Policy, partyKeys, type Tally, World } from './world.js';

/**
 * Runs random command sequences against a service on one kind of Store and compares every reply
 * with the reference model (reference-model.ts). `MODEL_RUNS` sets the sequences per store for a
 * long run; the default keeps the three stores together well under a minute.
 */

/** How a run gets a fresh store, and removes it after. */
export type StoreUnderTest = {
  open(): Promise<Store>;
  cleanup?(store: Store): Promise<void>;
  /** Service instances behind the store, each with its own caches; 1 unless said. */
  instances?: number;
};

/** Sequences per store: `MODEL_RUNS`, else `fallback`. */
export function modelRuns(fallback: number): number {
  const runs = Number(process.env.MODEL_RUNS ?? fallback);
  if (!Number.isSafeInteger(runs) || runs < 1) {
    throw new TypeError(`MODEL_RUNS must be a positive integer, got ${process.env.MODEL_RUNS}`);
  }
  return runs;
}

/** The most commands in one sequence: `MODEL_STEPS`, else 60. */
const MAX_COMMANDS = Number(process.env.MODEL_STEPS ?? 60);

const policyArb: fc.Arbitrary<Policy> = fc.record(
  {
    can: fc.constantFrom(['shop.*'], ['*'], ['shop.order']),
    verbs: fc.constantFrom<Verb[]>(
      ['INTENT', 'COMMIT', 'UNDO'],
      ['INTENT', 'COMMIT'],
      ['INTENT', 'UNDO'],
    ),
    risk: fc.constantFrom('low' as const, 'medium' as const),
    per: fc.integer({ min: 50, max: 500 }),
    spend: fc.integer({ min: 0, max: 1500 }),
    exp: fc.constantFrom(1800, 7200),
  },
  { requiredKeys: ['can'] },
);

/** Checks the store's data and the outside world against the model after a sequence. */
async function checkAfter(
  model: import('./reference-model.js').ReferenceModel,
  world: World,
): Promise<void> {
  const orders = (await world.store.data.list('orders/')).map(([key]) => key.slice(7));
  expect(orders.sort(), 'standing orders').toEqual(model.standingOrders().sort());
  const mail = model.mail();
  // Never twice (§4.4): each committed mail went out once, each undone one was recalled once.
  expect([...world.outbox.sent].sort(), 'mail sent').toEqual(mail.sent.sort());
  expect([...world.outbox.recalled].sort(), 'mail recalled').toEqual(mail.recalled.sort());
  const token = world.tokens.get('main') as string;
  expect(await world.store.spentTotal(grantId(token)), 'spend reserved').toBe(model.spent('main'));
}

/** One vitest test: `runs` random sequences on stores from `stores`; adds to `tally`. */
export function itMatchesTheModel(
  name: string,
  stores: StoreUnderTest,
  runs: number,
  tally: Tally = newTally(),
): void {
  it(`${name}: every reply matches the reference model (${runs} sequences)`, async () => {
    const keys = await partyKeys();
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(
        policyArb,
        fc.commands(commandArbs, { maxCommands: MAX_COMMANDS, size: 'max' }),
        async (policy, commands) => {
          const store = await stores.open();
          try {
            const setup = await World.open(store, keys, policy, tally, stores.instances ?? 1);
            tally.sequences++;
            tally.commands += [...commands].length;
            await fc.asyncModelRun(() => setup, commands);
            await checkAfter(setup.model, setup.real);
          } finally {
            await store.close();
            await stores.cleanup?.(store);
          }
        },
      ),
      { numRuns: runs },
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `model ${name}: ${tally.sequences} sequences, ${tally.commands} commands, ${tally.steps} replies checked in ${seconds} s; ${JSON.stringify(tally.kinds)}`,
    );
  }, 600_000);
}
