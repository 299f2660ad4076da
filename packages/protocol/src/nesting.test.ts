import { describe, expect, it } from 'vitest';
import { holdsMoreContainersThan, MAX_NESTING_DEPTH, nestsDeeperThan } from './nesting.js';

describe('how much structure a frame may hold', () => {
  it('counts nesting levels of arrays and objects, at any depth', () => {
    expect(nestsDeeperThan(1)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({ a: [1] }, 2)).toBe(false);
    expect(nestsDeeperThan({ a: [[1]] }, 2)).toBe(true);
    expect(nestsDeeperThan(JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`))).toBe(true);
    expect(
      nestsDeeperThan(
        JSON.parse(`${'['.repeat(MAX_NESTING_DEPTH)}${']'.repeat(MAX_NESTING_DEPTH)}`),
      ),
    ).toBe(false);
  });

  it('counts the arrays and objects JSON text opens, skipping strings and their escapes', () => {
    const many = (n: number) => `[${Array(n).fill('{}').join(',')}]`;
    expect(holdsMoreContainersThan(many(99), 100)).toBe(false);
    expect(holdsMoreContainersThan(many(100), 100)).toBe(true);
    const quoted = JSON.stringify({ text: '[{'.repeat(500), escaped: '\\"[[[[ \\\\"', list: [[]] });
    expect(holdsMoreContainersThan(quoted, 3)).toBe(false);
    expect(holdsMoreContainersThan(quoted, 2)).toBe(true);
    expect(holdsMoreContainersThan('"unterminated [[[[', 1)).toBe(false);
  });
});
