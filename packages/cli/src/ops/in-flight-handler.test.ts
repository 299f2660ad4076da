import type { FinalReply } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { InFlightHandler } from './in-flight-handler.js';

/** A handler whose replies come when the test says: each request waits for its release. */
function heldHandler() {
  const releases: (() => void)[] = [];
  const reply = (re: string): FinalReply => ({
    parley: 1,
    id: `r-${re}`,
    re,
    kind: 'ANSWER',
    data: {},
  });
  return {
    releases,
    handler: {
      handleText: (text: string) =>
        new Promise<FinalReply>((resolve, reject) =>
          releases.push(() =>
            text === 'fail' ? reject(new Error('fails')) : resolve(reply(text)),
          ),
        ),
    },
  };
}

describe('InFlightHandler', () => {
  it('counts requests until their replies, and idle() waits for the last one', async () => {
    const held = heldHandler();
    const handler = new InFlightHandler(held.handler);
    expect(await handler.idle(10)).toBe(true);
    const first = handler.handleText('a', {});
    const second = handler.handleText('fail', {});
    second.catch(() => undefined);
    expect(handler.running).toBe(2);
    const idle = handler.idle(60_000);
    held.releases[0]?.();
    expect(await first).toMatchObject({ re: 'a' });
    expect(handler.running).toBe(1);
    held.releases[1]?.();
    expect(await idle).toBe(true);
    expect(handler.running).toBe(0);
  });

  it('idle() says false when a request is still running at its limit', async () => {
    const held = heldHandler();
    const handler = new InFlightHandler(held.handler);
    const work = handler.handleText('stuck', {});
    expect(await handler.idle(20)).toBe(false);
    expect(handler.running).toBe(1);
    held.releases[0]?.();
    await work;
    expect(handler.running).toBe(0);
    expect(await handler.idle(20)).toBe(true);
  });
});
