import { describe, expect, it } from 'vitest';
import { README_HASH, VENUES, type Venue, venueAgents } from '../../test/fixtures/venues.js';
import { ConsensusError } from '../errors.js';
import { PreferenceSheet } from '../sheet/preference-sheet.js';
import { Agent } from './agent.js';
import { runConsensus, runConsensusAsync } from './run.js';
import type { Verdict } from './verdict.js';

const fixed = (owner: string, scores: Record<string, number>, blocked: string[] = []) =>
  new Agent<string>(
    owner,
    new PreferenceSheet(owner, {
      hard: blocked.length === 0 ? [] : [{ name: 'no', predicate: (o) => !blocked.includes(o) }],
      utility: (o) => scores[o] ?? 0,
    }),
  );

describe('runConsensus: egalitarian max-min', () => {
  it('picks the highest floor, then the highest total', () => {
    const agents = [fixed('A', { x: 0.5, y: 0.5, z: 0.9 }), fixed('B', { x: 0.5, y: 0.9, z: 0.4 })];
    expect(runConsensus(agents, ['x', 'y', 'z']).decision).toBe('y');
  });

  it('lets the first listed option win an exact tie', () => {
    const agents = [fixed('A', { x: 0.5, y: 0.5 }), fixed('B', { x: 0.7, y: 0.7 })];
    expect(runConsensus(agents, ['x', 'y']).decision).toBe('x');
    expect(runConsensus(agents, ['y', 'x']).decision).toBe('y');
  });

  it('never picks an option a red line rejects, and reports its score as 0.0', () => {
    const agents = [fixed('A', { x: 1, y: 0.1 }), fixed('B', { x: 1, y: 0.1 }, ['x'])];
    const result = runConsensus(agents, ['x', 'y']);
    expect(result.decision).toBe('y');
    expect(result.transcript.entries[0]?.verdicts[1]).toEqual({
      owner: 'B',
      acceptable: false,
      score: 0,
      reason: 'red-line',
      sig: null,
      pubkey_hex: null,
    });
  });

  it('deadlocks honestly when nothing is acceptable to all, or nobody takes part', () => {
    const deadlock = runConsensus([fixed('A', {}, ['x', 'y'])], ['x', 'y']);
    expect(deadlock.status).toBe('deadlock');
    expect(deadlock.decision).toBeNull();
    expect(deadlock.transcript.result).toEqual({ status: 'deadlock', decision: null });
    expect(runConsensus([], ['x']).status).toBe('deadlock');
    expect(runConsensus([fixed('A', {})], []).status).toBe('deadlock');
  });

  it('refuses duplicate owners and unknown rules', () => {
    expect(() => runConsensus([fixed('A', {}), fixed('A', {})], ['x'])).toThrow(ConsensusError);
    expect(() => runConsensus([fixed('A', {})], ['x'], 'majority' as 'egalitarian')).toThrow(
      /unknown rule/,
    );
  });

  it('refuses an option the record could not hash', () => {
    expect(() => runConsensus([fixed('A', {})], [Number.NaN as unknown as string])).toThrow();
  });
});

describe('runConsensusAsync', () => {
  it('records the same transcript as the synchronous run', async () => {
    const result = await runConsensusAsync<Venue>(venueAgents(), VENUES);
    expect(result.transcript.hash()).toBe(README_HASH);
  });

  it('records in option and agent order however many calls are pending and whenever they answer', async () => {
    // Each agent answers after a delay that reverses the order the calls were made in.
    const slow = venueAgents().map((agent, j) => ({
      owner: agent.owner,
      consider: (option: Venue) =>
        new Promise<Verdict>((resolve) =>
          setTimeout(
            () => resolve(agent.consider(option)),
            2 * (9 - j - 3 * VENUES.indexOf(option)),
          ),
        ),
    }));
    for (const concurrency of [1, 2, 9, 100]) {
      const result = await runConsensusAsync(slow, VENUES, 'egalitarian', { concurrency });
      expect(result.transcript.hash()).toBe(README_HASH);
    }
  });

  it('keeps at most `concurrency` calls pending, and starts none after a failure', async () => {
    let pending = 0;
    let most = 0;
    let calls = 0;
    const agent = (owner: string, failOn: number | null) => ({
      owner,
      consider: async (option: number): Promise<Verdict> => {
        calls++;
        pending++;
        most = Math.max(most, pending);
        await new Promise((resolve) => setTimeout(resolve, 1));
        pending--;
        if (option === failOn) throw new Error(`${owner} failed`);
        return { owner, acceptable: true, score: 0.5, reason: 'ok', sig: null, pubkey_hex: null };
      },
    });
    const options = Array.from({ length: 20 }, (_, i) => i);
    await runConsensusAsync([agent('A', null), agent('B', null)], options, 'egalitarian', {
      concurrency: 3,
    });
    expect(most).toBe(3);
    calls = 0;
    await expect(
      runConsensusAsync([agent('A', null), agent('B', 2)], options, 'egalitarian', {
        concurrency: 3,
      }),
    ).rejects.toThrow('B failed');
    // Option 2 is the fifth and sixth call; at most two more were pending when it failed.
    expect(calls).toBeLessThanOrEqual(8);
    await expect(
      runConsensusAsync([agent('A', null)], options, 'egalitarian', { concurrency: 0 }),
    ).rejects.toThrow(ConsensusError);
  });

  it('refuses a verdict that names another owner or is malformed', async () => {
    const liar = {
      owner: 'Ana',
      consider: (): Verdict => ({
        owner: 'Bob',
        acceptable: true,
        score: 1,
        reason: 'ok',
        sig: null,
        pubkey_hex: null,
      }),
    };
    await expect(runConsensusAsync([liar], ['x'])).rejects.toThrow(/another owner/);
    const inconsistent = {
      owner: 'Ana',
      consider: async (): Promise<Verdict> => ({
        owner: 'Ana',
        acceptable: false,
        score: 0,
        reason: 'ok',
        sig: null,
        pubkey_hex: null,
      }),
    };
    await expect(runConsensusAsync([inconsistent], ['x'])).rejects.toThrow(/reason/);
  });
});
