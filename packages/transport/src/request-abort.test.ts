import { describe, expect, it } from 'vitest';
import { RequestAbort } from './request-abort.js';

describe('RequestAbort', () => {
  it('a signal read before the abort is aborted by it, once', () => {
    const abort = new RequestAbort();
    const signal = abort.signal;
    let heard = 0;
    signal.addEventListener('abort', () => heard++);
    expect(signal.aborted).toBe(false);
    abort.abort();
    abort.abort();
    expect(signal.aborted).toBe(true);
    expect(heard).toBe(1);
    expect(abort.signal).toBe(signal);
  });

  it('a signal first read after the abort is aborted already', () => {
    const abort = new RequestAbort();
    abort.abort();
    expect(abort.aborted).toBe(true);
    expect(abort.signal.aborted).toBe(true);
  });

  it('without an abort, the signal stays unaborted', () => {
    const abort = new RequestAbort();
    expect(abort.signal.aborted).toBe(false);
    expect(abort.aborted).toBe(false);
  });
});
