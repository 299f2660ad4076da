import { estimateTokens } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { loadVectors } from './load.js';

const cases = loadVectors<{ text: string; est: number }[]>('estimate.json');

describe('conformance: §8 token estimate', () => {
  it.each(cases.map((c) => [JSON.stringify(c.text), c] as const))('est(%s)', (_name, c) => {
    expect(estimateTokens(c.text)).toBe(c.est);
  });
});
