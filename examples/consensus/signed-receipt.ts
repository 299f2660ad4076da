/**
 * A parley with signed verdicts bound to one session, each owner ratifying with their own key,
 * and the receipt file checked as `parley verify-receipt` would check it.
 * Run: npx tsx examples/consensus/signed-receipt.ts
 */
import {
  createSession,
  HardConstraint,
  makeReceipt,
  PreferenceSheet,
  publicKeyHex,
  ratify,
  runConsensusAsync,
  SigningAgent,
  signAcceptance,
  verifyReceiptCommand,
  writeReceipt,
} from '@parley/consensus';
import { keyPairFromSeed } from '@parley/protocol';

interface Slot {
  day: string;
  hour: number;
  remote: boolean;
}

const slots: Slot[] = [
  { day: 'mon', hour: 9, remote: false },
  { day: 'tue', hour: 14, remote: true },
  { day: 'thu', hour: 17, remote: true },
];
const sheets = [
  new PreferenceSheet<Slot>('Ana', {
    hard: [new HardConstraint('no mornings', (s) => s.hour >= 10)],
    utility: (s) => (s.day === 'thu' ? 1 : 0.6),
  }),
  new PreferenceSheet<Slot>('Bo', {
    hard: [new HardConstraint('remote only', (s) => s.remote)],
    utility: (s) => 1 - s.hour / 24,
  }),
  new PreferenceSheet<Slot>('Cy', { utility: (s) => (s.day === 'tue' ? 0.9 : 0.5) }),
];

// Fixed seeds keep the output stable; real owners hold their own keys.
const owners = await Promise.all(
  sheets.map(async (sheet, i) => ({
    sheet,
    key: await keyPairFromSeed(new Uint8Array(32).fill(i + 1)),
  })),
);
const roster = Object.fromEntries(owners.map(({ sheet, key }) => [sheet.owner, publicKeyHex(key)]));
const session = createSession(roster, 'example-session-0001');

const agents = owners.map(
  ({ sheet, key }) => new SigningAgent(sheet.owner, sheet, key, { session }),
);
const result = await runConsensusAsync(agents, slots);
const acceptances = await Promise.all(
  owners.map(({ sheet, key }) => signAcceptance(ratify(sheet, result.transcript, true), key)),
);
const file = writeReceipt(
  makeReceipt(result, {
    title: 'Weekly sync slot',
    participants: sheets.map((s) => s.owner),
    roster,
    session,
    acceptances,
  }),
);

const check = await verifyReceiptCommand(file);
process.stdout.write(check.stdout);
process.exitCode = check.exitCode;
