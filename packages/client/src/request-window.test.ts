import { describe, expect, it } from 'vitest';
import { RequestWindow } from './request-window.js';

describe('§2.2 RequestWindow', () => {
  it('lets `size` requests in at once and the rest in the order they came', async () => {
    const window = new RequestWindow(2);
    const order: number[] = [];
    const all = [1, 2, 3, 4, 5].map((n) => window.acquire().then(() => order.push(n)));
    await Promise.resolve();
    expect(window.inFlight).toBe(2);
    expect(window.waiting).toBe(3);
    expect(window.tryAcquire()).toBe(false);
    window.release();
    window.release();
    await Promise.all(all.slice(0, 4));
    expect(order).toEqual([1, 2, 3, 4]);
    window.release();
    await all[4];
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(window.inFlight).toBe(2);
    window.release();
    expect(window.tryAcquire()).toBe(true);
    expect(window.inFlight).toBe(2);
  });

  it('a request whose signal aborts while it waits leaves the queue and is never let in', async () => {
    const window = new RequestWindow(1);
    await window.acquire();
    const abort = new AbortController();
    const waiting = window.acquire(abort.signal);
    const after = window.acquire();
    abort.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    expect(window.waiting).toBe(1);
    window.release();
    await after;
    expect(window.inFlight).toBe(1);
  });

  it('narrows to what the server proved it allows, never below 1, never wider', () => {
    const window = new RequestWindow(128);
    window.narrow(16);
    expect(window.size).toBe(16);
    window.narrow(40);
    expect(window.size).toBe(16);
    window.narrow(0);
    expect(window.size).toBe(1);
    expect(() => new RequestWindow(0)).toThrow(RangeError);
  });
});
