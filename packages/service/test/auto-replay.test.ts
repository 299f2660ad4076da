// §4.3.1: a repeated auto frame is answered with the original reply, whatever happened since;
// cases mutation testing (npm run mutate -- dispatch-execute) showed were unchecked.
import {
  type Caveat,
  type ErrorReply,
  ParleyError,
  publicKeyString,
  type ReceiptReply,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { agentSetup, BASE_CAVEATS, keys, request, send, T0 } from './harness.js';

const { principal, agent } = await keys();
const trust = [publicKeyString(principal)];

const autoIntent = (id: string, params: Record<string, unknown>) =>
  ({ verb: 'INTENT', capability: 'acme.buy', params, auto: true, id }) as never;

async function setup(caveats: Caveat[] = BASE_CAVEATS) {
  const s = await agentSetup({ principal, agent, trust, caveats });
  const auto = async (id: string, params: Record<string, unknown>) =>
    (await send(s.service, await request(autoIntent(id, params), s.signer()))).reply;
  return { ...s, auto, bought: async () => (await s.store.data.list('bought/')).length };
}

describe('§4.3.1 the replay memory answers first', () => {
  it('a repeat after the grant expired still gets the original receipt', async () => {
    const s = await setup([...BASE_CAVEATS, { exp: T0 + 100 }]);
    const first = (await s.auto('frame-exp', { amount: 3 })) as ReceiptReply;
    expect(first).toMatchObject({ kind: 'RECEIPT', auto: true });
    s.clock.set(T0 + 200);
    expect(await s.auto('frame-exp', { amount: 3 })).toMatchObject({
      kind: 'RECEIPT',
      auto: true,
      replay: true,
      receipt: first.receipt,
    });
    expect(await s.bought()).toBe(1);
  });

  it('a refusal is remembered too: a repeat with other params gets it, and nothing is bought', async () => {
    const s = await setup();
    const refused = (await s.auto('frame-bad', { amount: 'many' })) as ErrorReply;
    expect(refused).toMatchObject({ kind: 'ERROR', code: 'invalid_params' });
    const again = (await s.auto('frame-bad', { amount: 3 })) as ErrorReply;
    expect(again).toMatchObject({
      kind: 'ERROR',
      code: 'invalid_params',
      message: refused.message,
    });
    expect(await s.bought()).toBe(0);
  });

  it('a transient refusal (unavailable) is not remembered: the repeat is planned again', async () => {
    const s = await setup();
    let down = true;
    s.service.intent('acme.flaky', {
      params: {},
      transactional: true,
      plan: () => {
        if (down) throw new ParleyError('unavailable', 'the catalogue is loading', { retry: 1 });
        return [
          {
            summary: 'Flip',
            effects: [{ op: 'update', target: 'x' }],
            action: null,
            undoWindow: 60,
          },
        ];
      },
      apply: () => ({ flipped: true }),
      revert: () => ({}),
    });
    const frame = () =>
      request(
        {
          verb: 'INTENT',
          capability: 'acme.flaky',
          params: {},
          auto: true,
          id: 'frame-flaky',
        } as never,
        s.signer(),
      );
    expect((await send(s.service, await frame())).reply).toMatchObject({ code: 'unavailable' });
    down = false;
    expect((await send(s.service, await frame())).reply).toMatchObject({
      kind: 'RECEIPT',
      auto: true,
    });
  });

  it('an auto commit in doubt after a crash is unavailable, never executed again', async () => {
    const s = await setup();
    // What a crash between the claim and the apply leaves: the record, applying, with its auto key.
    await s.store.beginCommit({
      proposalId: 'p_crashed',
      holder: publicKeyString(agent),
      principal: publicKeyString(principal),
      startedAt: T0,
      amount: 3,
      caps: [],
      auto: { key: publicKeyString(agent), frameId: 'frame-crash', until: T0 + 900 },
    });
    expect(await s.auto('frame-crash', { amount: 3 })).toMatchObject({
      kind: 'ERROR',
      code: 'unavailable',
      retry: 5,
    });
    expect(await s.bought()).toBe(0);
  });
});
