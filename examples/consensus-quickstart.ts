/**
 * The parley-consensus README snippet in TypeScript: three friends pick a venue, Bob's budget is
 * a red line in code, and each owner replays their own sheet against the receipt.
 * Run: npx tsx examples/consensus-quickstart.ts (prints the same lines as the Python snippet).
 */
import { Agent, HardConstraint, PreferenceSheet, runConsensus } from '@parley/consensus';

interface Venue {
  venue: string;
  cost: number;
}

const options: Venue[] = [
  { venue: 'rooftop', cost: 900 },
  { venue: 'garden', cost: 600 },
  { venue: 'diner', cost: 300 },
];
const ana = new PreferenceSheet<Venue>('Ana', {
  utility: (o) => (o.venue === 'rooftop' ? 1.0 : 0.4),
});
// a red line: code, not a preference
const bob = new PreferenceSheet<Venue>('Bob', {
  hard: [new HardConstraint('budget', (o) => o.cost <= 700)],
  utility: (o) => 1 - o.cost / 1000,
});
const cara = new PreferenceSheet<Venue>('Cara', {
  utility: (o) => (o.venue === 'garden' ? 0.9 : 0.5),
});

const agents = [ana, bob, cara].map((s) => new Agent(s.owner, s));
const result = runConsensus(agents, options);
console.log(result.status, pythonRepr(result.decision));
console.log('receipt sha256:', result.transcript.hash());
// each owner replays their own private sheet, locally
for (const sheet of [ana, bob, cara]) {
  const ok = result.transcript.verifyNonBetrayal(sheet, result.decision);
  console.log(sheet.owner, 'not betrayed:', ok ? 'True' : 'False');
}

/** Python's repr of a small dict, so the lines match the Python snippet's output. */
function pythonRepr(value: Venue | null): string {
  if (value === null) return 'None';
  const items = Object.entries(value).map(
    ([k, v]) => `'${k}': ${typeof v === 'string' ? `'${v}'` : v}`,
  );
  return `{${items.join(', ')}}`;
}
