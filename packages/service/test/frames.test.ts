import { MAX_FRAME_CONTAINERS } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { keys, send, T0, testClock, toyService } from './harness.js';

describe('§2 frames through the dispatcher', async () => {
  const { principal } = await keys();
  const clock = testClock();
  const { service } = toyService({ trust: [`ed25519:${principal.publicKey}`], clock: clock.now });

  it('§2.1: an unknown verb is bad_frame, answered once with re', async () => {
    const { reply } = await send(service, { parley: 1, id: 'x1', verb: 'DANCE' });
    expect(reply).toMatchObject({ parley: 1, re: 'x1', kind: 'ERROR', code: 'bad_frame' });
  });

  it('§2.1: a frame without "parley": 1 or an id is bad_frame', async () => {
    expect((await send(service, { parley: 2, id: 'x', verb: 'HELLO' })).reply).toMatchObject({
      code: 'bad_frame',
      re: 'x',
    });
    expect((await send(service, { parley: 1, verb: 'HELLO' })).reply).toMatchObject({
      code: 'bad_frame',
      re: '',
    });
    const text = await service.handleText('{not json');
    expect(text).toMatchObject({ kind: 'ERROR', code: 'bad_frame', re: '' });
  });

  it('§2.1: unknown fields are ignored', async () => {
    const { reply } = await send(service, {
      parley: 1,
      id: 'h',
      verb: 'HELLO',
      shiny: { new: 'field' },
    });
    expect(reply.kind).toBe('BRIEF');
  });

  it('§7: malformed params are invalid_params, not a crash', async () => {
    const { reply } = await send(service, {
      parley: 1,
      id: 'a',
      verb: 'ASK',
      capability: 'acme.echo',
      params: [1],
    });
    expect(reply).toMatchObject({ kind: 'ERROR', code: 'invalid_params' });
  });

  it(`a frame of more than ${MAX_FRAME_CONTAINERS} arrays and objects is bad_frame, unparsed`, async () => {
    const many = (n: number) =>
      `{"parley":1,"id":"m","verb":"HELLO","junk":[${Array(n).fill('{}').join(',')}]}`;
    const refused = await service.handleText(many(MAX_FRAME_CONTAINERS));
    expect(refused).toMatchObject({ kind: 'ERROR', code: 'bad_frame', re: '' });
    expect((refused as { message: string }).message).toContain(String(MAX_FRAME_CONTAINERS));
    expect(await service.handleText(many(MAX_FRAME_CONTAINERS - 2))).toMatchObject({
      kind: 'BRIEF',
      re: 'm',
    });
  });

  it('replies carry a fresh id and the request id in re', async () => {
    const a = await send(service, { parley: 1, id: 'same', verb: 'HELLO' });
    const b = await send(service, { parley: 1, id: 'same', verb: 'HELLO' });
    expect(a.reply.re).toBe('same');
    expect(a.reply.id).not.toBe(b.reply.id);
    expect(T0).toBeGreaterThan(0);
  });
});
