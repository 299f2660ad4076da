import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.js';

describe('restart backoff', () => {
  it('doubles up to its maximum and starts over after a reset', () => {
    const backoff = new Backoff(500, 3000);
    expect([backoff.next(), backoff.next(), backoff.next(), backoff.next()]).toEqual([
      500, 1000, 2000, 3000,
    ]);
    backoff.reset();
    expect(backoff.next()).toBe(500);
  });
});
