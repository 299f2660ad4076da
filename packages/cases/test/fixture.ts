import { createHash } from 'node:crypto';
import type { CaseRecord, Clock } from '../src/index.js';

/** A clock whose time the test sets and whose random bytes are a pinned stream. */
export function testClock(seed = 'cases', now = 1_800_000_000): Clock & { now: number } {
  let counter = 0;
  const random = (length: number): Uint8Array => {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i += 32) {
      const block = createHash('sha256').update(`${seed}:${counter++}`).digest();
      out.set(block.subarray(0, Math.min(32, length - i)), i);
    }
    return out;
  };
  return { now, random };
}

/** Five options for three flatmates choosing a lease: A and E pass everyone's first rules. */
export const LEASE_OPTIONS = [
  { plan: 'A', rent: 950, weeks: 4 },
  { plan: 'B', rent: 1100, weeks: 6 },
  { plan: 'C', rent: 800, weeks: 8 },
  { plan: 'D', rent: 900, weeks: 2 },
  { plan: 'E', rent: 920, weeks: 5 },
];

export const NEW_LEASE = {
  title: 'Our new lease',
  decision: 'Which lease do we sign?',
  options: LEASE_OPTIONS,
  organizer: 'Ana',
  parties: ['Ana', 'Ben', 'Cleo'],
};

/** Each party's own rules, written by hand (the `editDraft` ops of `reviseSheet`). */
export const RULES: Readonly<Record<string, unknown[]>> = {
  Ana: [
    { op: 'add_hard', constraint: { attr: 'rent', op: '<=', value: 1000 } },
    { op: 'add_soft', term: { attr: 'rent', weight: 1, direction: 'lower', lo: 800, hi: 1100 } },
    { op: 'add_claim', claim: 'ANA-PRIVATE-MARKER I can pay at most 1000' },
  ],
  Ben: [
    { op: 'add_hard', constraint: { attr: 'weeks', op: '>=', value: 4 } },
    { op: 'add_soft', term: { attr: 'weeks', weight: 1, direction: 'higher', lo: 2, hi: 8 } },
  ],
  Cleo: [{ op: 'add_hard', constraint: { attr: 'plan', op: '!=', value: 'C' } }],
};

/** The party id of `name`. */
export function partyId(record: CaseRecord, name: string): string {
  const party = record.shared.parties.find((p) => p.name === name);
  if (party === undefined) throw new Error(`no party ${name}`);
  return party.id;
}
