import { type Approvals, countApprovals, type JsonValue, readApprovals } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { loadVectors } from '../load.js';

type Vectors = {
  well_formed: { name: string; value: Approvals }[];
  malformed: { name: string; value: JsonValue }[];
  counting: {
    name: string;
    approvals: Approvals;
    approvers: string[];
    have: number;
    enough: boolean;
  }[];
};
const vectors = loadVectors<Vectors>('extensions/approvals.json');

describe('conformance: docs/extensions.md §E4 approvals', () => {
  it.each(vectors.well_formed.map((c) => [c.name, c] as const))('well formed: %s', (_name, c) => {
    expect(readApprovals(c.value as unknown as JsonValue)).toEqual(c.value);
  });

  it.each(vectors.malformed.map((c) => [c.name, c] as const))(
    'malformed, fails closed: %s',
    (_name, c) => {
      expect(readApprovals(c.value)).toHaveProperty('malformed');
    },
  );

  it.each(vectors.counting.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    // The approvers are the keys of the consent grants presented: a set, so a key counts once.
    expect(countApprovals(c.approvals, new Set(c.approvers))).toEqual({
      have: c.have,
      enough: c.enough,
    });
  });
});
