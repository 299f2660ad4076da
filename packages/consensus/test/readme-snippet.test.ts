import { describe, expect, it } from 'vitest';
import { runConsensus, verifyOutcome } from '../src/index.js';
import { README_HASH, VENUES, type Venue, venueAgents, venueSheets } from './fixtures/venues.js';

// The parley-consensus 0.2.1 README prints, for its snippet:
//   agreed {'venue': 'garden', 'cost': 600}
//   receipt sha256: 30483303e4d94e22833161d9bb8c292c0effff88c3303d7e195e57d49c88f516
//   Ana not betrayed: True   (and Bob, Cara)
describe('the parley-consensus README snippet', () => {
  const result = runConsensus<Venue>(venueAgents(), VENUES);

  it('agrees on the garden', () => {
    expect(result.status).toBe('agreed');
    expect(result.decision).toEqual({ venue: 'garden', cost: 600 });
  });

  it('hashes its receipt byte for byte like Python (rejected options score 0.0)', () => {
    expect(result.transcript.hash()).toBe(README_HASH);
  });

  it('betrays nobody, and the outcome verifies from the record alone', () => {
    for (const sheet of venueSheets()) {
      expect(result.transcript.verifyNonBetrayal(sheet, result.decision)).toBe(true);
    }
    expect(verifyOutcome(result.transcript, { expectedOwners: ['Ana', 'Bob', 'Cara'] }).ok).toBe(
      true,
    );
  });

  it('shows the coordinator only red-line for the rooftop, never the budget', () => {
    const rooftop = result.transcript.entries[0];
    expect(rooftop?.verdicts.map((v) => v.reason)).toEqual(['ok', 'red-line', 'ok']);
    expect(result.transcript.canonicalText()).not.toContain('budget');
    expect(result.transcript.canonicalText()).not.toContain('700');
  });
});
