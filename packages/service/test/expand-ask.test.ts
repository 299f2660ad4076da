// Who may EXPAND a handle (§4.6), what an ASK handler is told (§4.2), and what a capability
// lookup says (§7 unknown_capability): outcomes mutation testing (npm run mutate --
// dispatch-other) showed were checked by code alone, or not at all.
import { type AnswerReply, type ErrorReply, publicKeyString } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HANDLE_TTL_SECONDS } from '../src/index.js';
import { agentSetup, keys, request, send, T0 } from './harness.js';

const { principal, agent } = await keys();
const trust = [publicKeyString(principal)];

const said = (reply: unknown): string => {
  const r = reply as ErrorReply;
  return `${r.code}: ${r.message}`;
};

describe('§4.6 EXPAND', () => {
  it('a handle of an anonymous request expands with any proof, or none', async () => {
    const s = await agentSetup({ principal, agent, trust });
    const ask = request({ verb: 'ASK', capability: 'acme.list', params: {}, budget: 100 });
    const asked = (await send(s.service, await ask)).reply as AnswerReply;
    const handle = asked.more?.[0]?.handle ?? '';
    const signed = await request({ verb: 'EXPAND', handle }, { key: agent, ts: T0 });
    expect((await send(s.service, signed)).reply.kind).toBe('ANSWER');
  });

  it('names an unknown handle, an expired one, and one of another key', async () => {
    const s = await agentSetup({ principal, agent, trust });
    const unknown = await request({ verb: 'EXPAND', handle: 'h_nope' });
    expect(said((await send(s.service, unknown)).reply)).toBe(
      'not_found: no such handle: it was never issued or has been swept',
    );
    const proven = request(
      { verb: 'ASK', capability: 'acme.list', params: {}, budget: 100 },
      { key: agent, ts: T0 },
    );
    const handle = ((await send(s.service, await proven)).reply as AnswerReply).more?.[0]?.handle;
    const bare = await request({ verb: 'EXPAND', handle: handle ?? '' });
    expect(said((await send(s.service, bare)).reply)).toBe(
      'unauthorized: this handle belongs to another key: expand it with a proof from the key that asked (§4.6)',
    );
    s.clock.advance(24 * 3600);
    expect(said((await send(s.service, bare)).reply)).toBe(
      'expired: the handle has expired; repeat the original request',
    );
  });
});

describe('§4.6 EXPAND: how long a handle lives', () => {
  it('expands until the last second of its life (DEFAULT_HANDLE_TTL_SECONDS), not after', async () => {
    const s = await agentSetup({ principal, agent, trust });
    const ask = request({ verb: 'ASK', capability: 'acme.list', params: {}, budget: 100 });
    const handle = ((await send(s.service, await ask)).reply as AnswerReply).more?.[0]?.handle;
    const expand = async () =>
      (await send(s.service, await request({ verb: 'EXPAND', handle: handle ?? '' }))).reply;
    // Like a proposal (`now > expires`), a handle has expired only once its time has passed.
    s.clock.advance(DEFAULT_HANDLE_TTL_SECONDS);
    expect((await expand()).kind).toBe('ANSWER');
    s.clock.advance(1);
    expect(said(await expand())).toBe(
      'expired: the handle has expired; repeat the original request',
    );
  });
});

describe('§4.2 ASK', () => {
  it('tells the handler who asks and for whom', async () => {
    const s = await agentSetup({ principal, agent, trust });
    s.service.ask('acme.whoami', {
      params: {},
      requireGrant: true,
      run: (_params, ctx) => ({ holder: ctx.holder, principal: ctx.principal, now: ctx.now }),
    });
    const ask = await request({ verb: 'ASK', capability: 'acme.whoami', params: {} }, s.signer());
    expect(((await send(s.service, ask)).reply as AnswerReply).data).toEqual({
      holder: publicKeyString(agent),
      principal: publicKeyString(principal),
      now: T0,
    });
  });
});

describe('§7 unknown_capability', () => {
  it('says which verb a capability of the other kind needs, and how to fix it', async () => {
    const s = await agentSetup({ principal, agent, trust });
    const asIntent = await request({ verb: 'INTENT', capability: 'acme.echo', params: {} });
    const asAsk = await request({ verb: 'ASK', capability: 'acme.buy', params: {} });
    expect((await send(s.service, asIntent)).reply).toMatchObject({
      code: 'unknown_capability',
      message: 'acme.echo is an ask capability: send it with ASK, not INTENT',
      fix: [{ say: 'send ASK acme.echo' }],
    });
    expect((await send(s.service, asAsk)).reply).toMatchObject({
      code: 'unknown_capability',
      message: 'acme.buy is an intent capability: send it with INTENT, not ASK',
      fix: [{ say: 'send INTENT acme.buy' }],
    });
  });

  it('guesses among capabilities of the same kind only, or points to HELLO', async () => {
    const s = await agentSetup({ principal, agent, trust });
    const near = await request({ verb: 'ASK', capability: 'acme.lst', params: {} });
    expect((await send(s.service, near)).reply).toMatchObject({
      code: 'unknown_capability',
      message: 'this service has no ask capability "acme.lst"; did you mean acme.list?',
      fix: [{ say: 'use acme.list' }],
    });
    const far = await request({ verb: 'INTENT', capability: 'zzz.qqq', params: {} });
    expect((await send(s.service, far)).reply).toMatchObject({
      code: 'unknown_capability',
      message: 'this service has no intent capability "zzz.qqq"; HELLO lists them',
      fix: [{ say: 'send HELLO to list the capabilities' }],
    });
  });
});
