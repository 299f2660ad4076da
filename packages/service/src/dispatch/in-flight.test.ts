import { ParleyError, type Receipt } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import type { ServiceCore } from './core.js';
import { markInFlight } from './in-flight.js';

const core = { inFlight: new Map() } as unknown as ServiceCore;
const receipt = { id: 'r_1' } as Receipt;

describe('in-flight markers', () => {
  it('waiters get the receipt, and the entry leaves the map', async () => {
    const mark = markInFlight(core, 'p_1');
    const waiter = core.inFlight.get('p_1')?.receipt();
    mark.done(receipt);
    mark.clear();
    await expect(waiter).resolves.toBe(receipt);
    expect(core.inFlight.has('p_1')).toBe(false);
  });

  it('work that ends without a receipt still settles its waiters, as unavailable', async () => {
    const mark = markInFlight(core, 'p_2');
    const waiter = core.inFlight.get('p_2')?.receipt();
    mark.clear();
    await expect(waiter).rejects.toSatisfy(
      (e) => e instanceof ParleyError && e.code === 'unavailable',
    );
    expect(core.inFlight.has('p_2')).toBe(false);
  });

  it('clearing an older marker leaves a newer one for the same key in place', () => {
    const older = markInFlight(core, 'p_3');
    markInFlight(core, 'p_3');
    older.clear();
    expect(core.inFlight.has('p_3')).toBe(true);
  });

  it('a retry that waits after the work ended gets its outcome; the first outcome stands', async () => {
    const mark = markInFlight(core, 'p_4');
    mark.done(receipt);
    mark.failed(new Error('later'));
    await expect(mark.receipt()).resolves.toBe(receipt);
    const failing = markInFlight(core, 'p_5');
    failing.failed(new Error('apply failed'));
    failing.done(receipt);
    await expect(failing.receipt()).rejects.toThrow('apply failed');
  });
});
