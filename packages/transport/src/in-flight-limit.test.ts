import { describe, expect, it } from 'vitest';
import { InFlightLimit } from './in-flight-limit.js';

describe('InFlightLimit', () => {
  it('lets in up to max, refuses the next without counting it, and frees a place on leave', () => {
    const limit = new InFlightLimit(2);
    expect([limit.tryEnter(), limit.tryEnter(), limit.tryEnter()]).toEqual([true, true, false]);
    expect(limit.count).toBe(2);
    limit.leave();
    expect(limit.tryEnter()).toBe(true);
    expect(limit.refusal).toBe('at most 2 requests may be in flight on one connection');
  });
});
