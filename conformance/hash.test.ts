import { type HashedProposal, hashProposal } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { loadVectors } from './load.js';

const cases = loadVectors<{ name: string; proposal: HashedProposal; hash: string }[]>('hash.json');

describe('conformance: §5.1 proposal hash', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(hashProposal(c.proposal)).toBe(c.hash);
  });
});
