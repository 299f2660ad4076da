import {
  type AnswerReply,
  type BriefBody,
  type BriefReply,
  estimateLens,
  estimateTokens,
  publicKeyString,
  renderLens,
  stringifyFrame,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { defineService } from '../src/index.js';
import { grant, keys, request, SERVICE_ID, send, T0, testClock, toyService } from './harness.js';

describe('§4.1 HELLO', async () => {
  const { principal } = await keys();
  const { service } = toyService({ trust: [publicKeyString(principal)], clock: testClock().now });

  it('answers a BRIEF listing every capability with params, kind and risk', async () => {
    const { reply } = await send(service, {
      parley: 1,
      id: '1',
      verb: 'HELLO',
      agent: { name: 'test' },
    });
    const brief = reply as BriefReply;
    expect(brief.kind).toBe('BRIEF');
    expect(brief.service).toEqual({
      id: SERVICE_ID,
      name: 'Acme',
      summary: 'A toy service for tests.',
    });
    expect(brief.capabilities.map((c) => [c.name, c.kind])).toEqual([
      ['acme.echo', 'ask'],
      ['acme.list', 'ask'],
      ['acme.buy', 'intent'],
      ['acme.send', 'intent'],
    ]);
    expect(brief.capabilities[2]).toMatchObject({ risk: 'low', params: { amount: 'int' } });
    expect(brief.more).toBeUndefined();
  });

  it('§4.1, §8: a small budget omits params behind a More handle that expands to the full list', async () => {
    const full = (await send(service, { parley: 1, id: '1', verb: 'HELLO' })).reply as BriefReply;
    const small = (await send(service, { parley: 1, id: '2', verb: 'HELLO', budget: 60 }))
      .reply as BriefReply;
    expect(small.capabilities.every((c) => c.params === undefined)).toBe(true);
    expect(small.more).toHaveLength(1);
    const more = small.more?.[0];
    expect(more).toMatchObject({ path: 'capabilities', remaining: 4 });
    const expanded = (
      await send(service, {
        parley: 1,
        id: '3',
        verb: 'EXPAND',
        handle: more?.handle,
        budget: 5000,
      })
    ).reply as AnswerReply;
    expect(expanded.data).toEqual({ items: full.capabilities });
  });

  it('§4.1, §8: at every budget, the full BRIEF if it fits, else as many capabilities as fit without params', async () => {
    const full = (await send(service, { parley: 1, id: '1', verb: 'HELLO' })).reply as BriefReply;
    const { parley: _p, id: _i, re: _r, ...body } = full;
    const items = full.capabilities;
    const est = estimateLens({ kind: 'ANSWER', data: { items } });
    /** The BRIEF with its first `n` capabilities, without params, and the More for the list. */
    const lean = (n: number, handle: string): BriefBody => ({
      ...body,
      capabilities: items.slice(0, n).map(({ params: _params, ...rest }) => rest),
      more: [{ handle, path: 'capabilities', remaining: items.length, est }],
    });
    const probe = lean(1, 'h_0000000000000000000000');
    for (let budget = estimateLens(probe) - 2; budget <= estimateLens(body) + 1; budget++) {
      const reply = (await send(service, { parley: 1, id: `b${budget}`, verb: 'HELLO', budget }))
        .reply as BriefReply;
      const { parley: _a, id: _b, re: _c, ...got } = reply;
      if (estimateLens(body) <= budget) {
        expect(got, `budget ${budget}`).toEqual(body);
        continue;
      }
      const handle = reply.more?.[0]?.handle ?? '';
      const kept = reply.capabilities.length;
      expect(got, `budget ${budget}`).toEqual(lean(kept, handle));
      // The most that fit: one more would not (and one stays even when none fits).
      if (kept < items.length) expect(estimateLens(lean(kept + 1, handle))).toBeGreaterThan(budget);
      if (kept > 1) expect(estimateLens(got)).toBeLessThanOrEqual(budget);
    }
  });

  it('§4.1: a BRIEF entry carries the summary, params and an intent`s risk its definition has', async () => {
    const bare = defineService({ id: SERVICE_ID, name: 'Bare', trust: [], clock: () => T0 });
    bare.ask('bare.read', { summary: 'Read it', run: () => null });
    bare.ask('bare.peek', { run: () => null });
    bare.intent('bare.do', {
      params: { 'x?': 'int' },
      plan: () => [],
      apply: () => null,
    });
    bare.intent('bare.risky', {
      summary: 'Risky',
      risk: 'high',
      plan: () => [],
      apply: () => null,
    });
    const brief = (await send(bare, { parley: 1, id: '1', verb: 'HELLO' })).reply as BriefReply;
    // Written as on the wire: what is not there is absent, not undefined.
    expect(JSON.parse(JSON.stringify(brief.capabilities))).toEqual([
      { name: 'bare.read', kind: 'ask', summary: 'Read it' },
      { name: 'bare.peek', kind: 'ask' },
      { name: 'bare.do', kind: 'intent', params: { 'x?': 'int' } },
      { name: 'bare.risky', kind: 'intent', summary: 'Risky', risk: 'high' },
    ]);
  });

  it('§8: the capabilities handle expands to whole capability entries, never altered', async () => {
    const wordy = defineService({ id: SERVICE_ID, name: 'Wordy', trust: [], clock: () => T0 });
    // A summary long enough that a deep cut would shorten it (over 200 characters).
    wordy.ask('wordy.long', { summary: 'Reads everything. '.repeat(25), run: () => null });
    wordy.ask('wordy.short', { summary: 'Reads little', run: () => null });
    const small = (await send(wordy, { parley: 1, id: '5', verb: 'HELLO', budget: 40 }))
      .reply as BriefReply;
    const full = (await send(wordy, { parley: 1, id: '6', verb: 'HELLO' })).reply as BriefReply;
    const handle = small.more?.[0]?.handle;
    const slice = (await send(wordy, { parley: 1, id: '7', verb: 'EXPAND', handle, budget: 30 }))
      .reply as AnswerReply;
    const got = (slice.data as { items: unknown[] }).items;
    // A list root loses whole trailing items only, and keeps at least one (§8).
    expect(got.length).toBeGreaterThanOrEqual(1);
    expect(got).toEqual(full.capabilities.slice(0, got.length));
  });

  it('§4.1: a tiny budget keeps at least one capability and stays as small as it can', async () => {
    const tiny = (await send(service, { parley: 1, id: '4', verb: 'HELLO', budget: 5 }))
      .reply as BriefReply;
    expect(tiny.capabilities.length).toBeGreaterThanOrEqual(1);
    expect(tiny.more?.[0]?.path).toBe('capabilities');
  });
});

describe('§4.2 ASK', async () => {
  const { principal, agent } = await keys();
  const trust = [publicKeyString(principal)];
  const clock = testClock();
  const { service } = toyService({ trust, clock: clock.now });

  it('answers with the data, without a grant by default', async () => {
    const { reply } = await send(
      service,
      await request({ verb: 'ASK', capability: 'acme.echo', params: { text: 'hi', n: 2 } }),
    );
    expect(reply).toMatchObject({ kind: 'ANSWER', data: { echo: { text: 'hi', n: 2 } } });
  });

  it('§2.1, §8: the wire text of an answer, fitted or not, is exactly its JSON', async () => {
    for (const [capability, params, budget] of [
      ['acme.echo', { text: 'a "quoted" é', tags: ['x'] }, undefined],
      ['acme.list', { count: 3 }, undefined],
      ['acme.list', { count: 400 }, undefined],
      ['acme.list', { count: 40 }, 100],
    ] as const) {
      const frame = await request({ verb: 'ASK', capability, params });
      if (budget !== undefined) frame.budget = budget;
      const { reply } = await send(service, frame);
      expect(reply.kind).toBe('ANSWER');
      expect(stringifyFrame(reply)).toBe(JSON.stringify(reply));
      expect(estimateTokens(renderLens(reply))).toBeLessThanOrEqual(budget ?? 2000);
    }
  });

  it('§7: an unknown capability is unknown_capability with a did-you-mean fix', async () => {
    const { reply } = await send(
      service,
      await request({ verb: 'ASK', capability: 'acme.ecko', params: {} }),
    );
    expect(reply).toMatchObject({
      kind: 'ERROR',
      code: 'unknown_capability',
      fix: [{ say: 'use acme.echo' }],
    });
  });

  it('§7: ASK of an intent capability names the right verb', async () => {
    const { reply } = await send(
      service,
      await request({ verb: 'ASK', capability: 'acme.buy', params: {} }),
    );
    expect(reply).toMatchObject({ kind: 'ERROR', code: 'unknown_capability' });
  });

  it('§8: fits the answer to the budget with a More handle', async () => {
    const { reply } = await send(
      service,
      await request({ verb: 'ASK', capability: 'acme.list', params: {}, budget: 200 }),
    );
    const answer = reply as AnswerReply;
    expect(estimateTokens(renderLens(answer))).toBeLessThanOrEqual(200);
    expect(answer.more?.[0]).toMatchObject({ path: 'data.rows' });
  });

  it('§3: reads can require grants, and then refuse requests without one', async () => {
    const guarded = toyService({ trust, clock: clock.now, requireGrants: { ask: true } }).service;
    const bare = await send(
      guarded,
      await request({ verb: 'ASK', capability: 'acme.echo', params: { text: 'x' } }),
    );
    expect(bare.reply).toMatchObject({ kind: 'ERROR', code: 'unauthorized' });
    const token = await grant(principal, agent, [{ svc: [SERVICE_ID] }, { can: ['acme.*'] }]);
    const ok = await send(
      guarded,
      await request(
        { verb: 'ASK', capability: 'acme.echo', params: { text: 'x' } },
        { key: agent, grants: [token], ts: T0 },
      ),
    );
    expect(ok.reply.kind).toBe('ANSWER');
    const narrow = await grant(principal, agent, [{ svc: [SERVICE_ID] }, { can: ['acme.list'] }]);
    const refused = await send(
      guarded,
      await request(
        { verb: 'ASK', capability: 'acme.echo', params: { text: 'x' } },
        { key: agent, grants: [narrow], ts: T0 },
      ),
    );
    expect(refused.reply).toMatchObject({
      kind: 'ERROR',
      code: 'forbidden',
      need: [{ can: ['acme.list'] }],
    });
  });

  it('§6.5: a request whose proof does not verify is unauthorized', async () => {
    const req = await request(
      { verb: 'ASK', capability: 'acme.echo', params: { text: 'x' } },
      { key: agent, ts: T0 - 301 },
    );
    expect((await send(service, req)).reply).toMatchObject({ code: 'unauthorized' });
    const forged = await request(
      { verb: 'ASK', capability: 'acme.echo', params: { text: 'x' } },
      { key: agent, ts: T0 },
    );
    if (forged.proof !== undefined) forged.proof.key = publicKeyString(principal);
    expect((await send(service, forged)).reply).toMatchObject({ code: 'unauthorized' });
  });
});

describe('§2.2 EVENTs before an ANSWER, and a withdrawn capability', () => {
  const service = defineService({ id: SERVICE_ID, name: 'Acme', trust: [], log: () => {} });
  service.ask('acme.slow', {
    run: (_params, ctx) => {
      ctx.progress('half way', 0.5);
      ctx.progress('done', 1);
      return { ok: true };
    },
  });

  it('§2.2: a read reports progress as EVENT frames before its one final ANSWER', async () => {
    const { reply, events } = await send(service, {
      parley: 1,
      id: 'a1',
      verb: 'ASK',
      capability: 'acme.slow',
    });
    expect(reply.kind).toBe('ANSWER');
    expect(events.map((e) => [e.re, e.message, e.progress])).toEqual([
      ['a1', 'half way', 0.5],
      ['a1', 'done', 1],
    ]);
  });

  it('§4.1: a withdrawn capability leaves the BRIEF and is unknown to ASK', async () => {
    expect(service.withdraw('acme.slow')).toBe(true);
    expect(service.withdraw('acme.slow')).toBe(false);
    const brief = (await send(service, { parley: 1, id: 'h', verb: 'HELLO' })).reply as BriefReply;
    expect(brief.capabilities).toEqual([]);
    const { reply } = await send(service, {
      parley: 1,
      id: 'a2',
      verb: 'ASK',
      capability: 'acme.slow',
    });
    expect(reply).toMatchObject({ kind: 'ERROR', code: 'unknown_capability' });
  });
});
