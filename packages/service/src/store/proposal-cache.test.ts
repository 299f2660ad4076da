import { describe, expect, it } from 'vitest';
import { PROPOSAL_CACHE_CHARS, PROPOSAL_CACHE_SIZE, ProposalCache } from './proposal-cache.js';

describe('proposal cache', () => {
  it('keeps at most PROPOSAL_CACHE_SIZE entries, the newest', () => {
    const cache = new ProposalCache<string>();
    for (let i = 0; i <= PROPOSAL_CACHE_SIZE; i++) cache.set(`p${i}`, '{}', 2, 0);
    expect(cache.get('p0')).toBeUndefined();
    expect(cache.get(`p${PROPOSAL_CACHE_SIZE}`)).toBe('{}');
  });

  it('keeps at most PROPOSAL_CACHE_CHARS characters, and never a proposal of 1 MiB', () => {
    const cache = new ProposalCache<string>();
    const big = 'x'.repeat(PROPOSAL_CACHE_CHARS / 32);
    for (let i = 0; i < 100; i++) cache.set(`p${i}`, big, big.length, 0);
    expect(cache.chars).toBeLessThanOrEqual(PROPOSAL_CACHE_CHARS);
    expect(cache.get('p99')).toBe(big);
    expect(cache.get('p0')).toBeUndefined();
    cache.set('huge', 'x', 1_048_577, 0);
    expect(cache.get('huge')).toBeUndefined();
  });

  it('forgets what expired past the grace period', () => {
    const cache = new ProposalCache<string>();
    cache.set('old', 'a', 1, 10);
    cache.set('new', 'b', 1, 1_000_000);
    cache.sweep(100_000);
    expect(cache.get('old')).toBeUndefined();
    expect(cache.get('new')).toBe('b');
    expect(cache.chars).toBe(1);
  });
});
