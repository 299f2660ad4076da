import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

describe('RateLimiter: a fixed window per client, as the reference bot keeps it', () => {
  it('allows max requests per window, per client, and resets when the window has passed', () => {
    let now = 1000;
    const limiter = new RateLimiter({ max: 2, windowMs: 60_000 }, () => now);
    expect([1, 2, 3].map(() => limiter.allow('a').allowed)).toEqual([true, true, false]);
    expect(limiter.allow('b').allowed).toBe(true);
    now += 59_900;
    expect(limiter.allow('a')).toEqual({ allowed: false, retryAfterMs: 100 });
    now += 100;
    expect(limiter.allow('a').allowed).toBe(true);
  });

  it('refuses a limit that could never allow anything', () => {
    expect(() => new RateLimiter({ max: 0, windowMs: 1000 })).toThrow(RangeError);
    expect(() => new RateLimiter({ max: 1, windowMs: 0 })).toThrow(RangeError);
  });
});
