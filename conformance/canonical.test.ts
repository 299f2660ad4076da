import { canonicalize } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { loadVectors } from './load.js';

const cases = loadVectors<{ name: string; input: unknown; canonical: string }[]>('canonical.json');

describe('conformance: §10 canonical JSON', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(canonicalize(c.input)).toBe(c.canonical);
  });
});
