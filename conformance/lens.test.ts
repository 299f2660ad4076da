import { type JsonValue, type ReplyBody, renderLens, renderValue } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { loadVectors } from './load.js';

interface LensCase {
  name: string;
  type: 'value' | 'reply';
  input: unknown;
  lens: string;
}

const cases = loadVectors<LensCase[]>('lens.json');

describe('conformance: §9 Lens', () => {
  it('has every published case', () => {
    expect(cases).toHaveLength(27);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const text =
      c.type === 'value' ? renderValue(c.input as JsonValue) : renderLens(c.input as ReplyBody);
    expect(text).toBe(c.lens);
  });
});
