import {
  type AnswerReply,
  type ErrorReply,
  keyPairFromSeed,
  MAX_FRAME_BYTES,
  MAX_ID_LENGTH,
  type ProposalsReply,
  publicKeyString,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { defineService, MemoryStore, UNAUTHENTICATED_POOL } from '../src/index.js';
import {
  agentSetup,
  BASE_CAVEATS,
  grant,
  keys,
  request,
  SERVICE_ID,
  send,
  T0,
  testClock,
} from './harness.js';

const { principal, agent, mallory } = await keys();
const trust = [publicKeyString(principal)];

/** An INTENT from the agent: anonymous, with a proof alone, or with these grants and a proof. */
async function intentFrom(
  how: 'anonymous' | 'proof' | string[],
  body: Record<string, unknown>,
): Promise<unknown> {
  const frame = { verb: 'INTENT' as const, ...body };
  if (how === 'anonymous') return request(frame);
  return request(frame, { key: agent, ts: T0, ...(how === 'proof' ? {} : { grants: how }) });
}

describe('§4.4 proposals no trusted grant authorized are view-only, and never stored', async () => {
  const s = await agentSetup({ principal, agent, trust });
  const untrusted = await grant(mallory, agent, BASE_CAVEATS);
  const buy = { capability: 'acme.buy', params: { amount: 5, alternatives: 2 } };

  it.each([
    ['anonymous', 'anonymous'],
    ['a proof without grants', 'proof'],
  ] as const)(
    'an INTENT with %s: proposals are shown, not kept, and COMMIT is forbidden',
    async (_what, how) => {
      const reply = (await send(s.service, await intentFrom(how as never, buy)))
        .reply as ProposalsReply;
      expect(reply.kind).toBe('PROPOSALS');
      expect(reply.proposals).toHaveLength(2);
      for (const p of reply.proposals) {
        expect(p.id.startsWith('pv_')).toBe(true);
        expect(await s.store.getProposal(p.id)).toBeUndefined();
        const commit = await request(
          { verb: 'COMMIT', proposal: p.id, hash: p.hash },
          { key: agent, grants: [s.token], ts: T0 },
        );
        const refused = (await send(s.service, commit)).reply as ErrorReply;
        expect(refused).toMatchObject({ code: 'forbidden' });
        expect(refused.message).toContain('§4.4');
      }
    },
  );

  it('an INTENT presenting only a grant from an untrusted principal is refused at once (§7 unauthorized)', async () => {
    const reply = (await send(s.service, await intentFrom([untrusted], buy))).reply as ErrorReply;
    expect(reply).toMatchObject({ kind: 'ERROR', code: 'unauthorized' });
  });

  it('an INTENT a trusted grant authorized keeps its proposals for COMMIT', async () => {
    const reply = (await send(s.service, await intentFrom([s.token], buy))).reply as ProposalsReply;
    for (const p of reply.proposals) {
      expect(p.id.startsWith('p_')).toBe(true);
      expect(await s.store.getProposal(p.id)).toBeDefined();
    }
  });

  it('§4.3.1: an auto INTENT no grant authorized commits nothing and is not remembered', async () => {
    const frame = await intentFrom('proof', { ...buy, id: 'auto-1', auto: true });
    expect((await send(s.service, frame)).reply.kind).toBe('PROPOSALS');
    expect(await s.store.getAuto(publicKeyString(agent), 'auto-1')).toBeUndefined();
    const authorized = await intentFrom([s.token], { ...buy, id: 'auto-2', auto: true });
    expect((await send(s.service, authorized)).reply.kind).toBe('RECEIPT');
    expect(await s.store.getAuto(publicKeyString(agent), 'auto-2')).toBeDefined();
  });
});

describe('§2.1 a reply that cannot be sent keeps nothing', async () => {
  const store = new MemoryStore();
  const service = defineService({ id: SERVICE_ID, name: 'Big', trust, clock: () => T0, store });
  service.intent('acme.many', {
    params: { count: 'int' },
    plan: (params) => [
      {
        summary: 'Touch many things',
        effects: Array.from({ length: params.count as number }, (_, i) => ({
          op: 'update' as const,
          target: `item/${i}`,
          field: 'stock',
          from: 10,
          to: 9,
        })),
        action: null,
      },
    ],
    apply: () => null,
  });
  service.ask('acme.wide', {
    params: { chars: 'int' },
    run: (params) => ({ text: '語'.repeat(params.chars as number) }),
  });
  const token = await grant(principal, agent, BASE_CAVEATS);

  it('an ANSWER still over 1 MiB after fitting to its budget is limit, and no handle is kept', async () => {
    const puts: number[] = [];
    const putHandles = store.putHandles.bind(store);
    store.putHandles = async (records) => {
      puts.push(records.length);
      return putHandles(records);
    };
    // 2 million three-byte characters at a budget of 600,000: fitting halves the text twice, to
    // 500,000 characters (1.5 MB), which fits the budget but not a frame.
    const frame = await request({
      verb: 'ASK',
      capability: 'acme.wide',
      params: { chars: 2_000_000 },
      budget: 600_000,
    });
    const reply = (await send(service, frame)).reply as ErrorReply;
    expect(reply).toMatchObject({ kind: 'ERROR', code: 'limit' });
    expect(reply.message).toContain('even fitted to the budget');
    expect(puts).toEqual([]);
    // The same cut to a budget that a frame holds keeps its handle.
    const small = await request({
      verb: 'ASK',
      capability: 'acme.wide',
      params: { chars: 2_000_000 },
      budget: 100_000,
    });
    expect((await send(service, small)).reply.kind).toBe('ANSWER');
    expect(puts).toEqual([1]);
    store.putHandles = putHandles;
  });

  it.each([
    ['anonymous', 'anonymous'],
    ['authorized', [token]],
  ] as const)(
    '%s: a PROPOSALS reply over 1 MiB is limit, and no proposal is stored',
    async (_what, how) => {
      const puts: number[] = [];
      const putProposals = store.putProposals.bind(store);
      store.putProposals = async (records) => {
        puts.push(records.length);
        return putProposals(records);
      };
      const frame = await intentFrom(how as never, {
        capability: 'acme.many',
        params: { count: 20_000 },
      });
      const reply = (await send(service, frame)).reply as ErrorReply;
      expect(reply).toMatchObject({ kind: 'ERROR', code: 'limit' });
      expect(reply.message).toContain('1 MiB');
      expect(puts).toEqual([]);
      const small = await intentFrom(how as never, {
        capability: 'acme.many',
        params: { count: 3 },
      });
      expect((await send(service, small)).reply.kind).toBe('PROPOSALS');
      expect(puts).toEqual(how === 'anonymous' ? [] : [1]);
      store.putProposals = putProposals;
    },
  );
});

describe('§2.1 the 1 MiB bound on a reply, to the byte', async () => {
  const service = defineService({
    id: SERVICE_ID,
    name: 'Big',
    trust,
    clock: () => T0,
    store: new MemoryStore(),
  });
  // One proposal whose data is `wide` three-byte characters (UTF-8) and `narrow` ASCII ones.
  service.intent('acme.text', {
    params: { wide: 'int', narrow: 'int' },
    plan: (params) => [
      {
        summary: 'Keep a text',
        effects: [{ op: 'create', target: 'text/1' }],
        action: null,
        data: '語'.repeat(params.wide as number) + 'x'.repeat(params.narrow as number),
      },
    ],
    apply: () => null,
  });
  const token = await grant(principal, agent, BASE_CAVEATS);
  /** The reply to an authorized INTENT (its proposals are kept), at a budget it fits within. */
  const textOf = async (wide: number, narrow: number) =>
    (
      await send(
        service,
        await request(
          { verb: 'INTENT', capability: 'acme.text', params: { wide, narrow }, budget: 10_000_000 },
          { key: agent, grants: [token], ts: T0 },
        ),
      )
    ).reply;
  /** UTF-8 bytes of a reply's body: the frame without its envelope (parley, id, re). */
  const bodyBytes = (reply: object): number => {
    const { parley: _p, id: _i, re: _r, ...body } = reply as Record<string, unknown>;
    return Buffer.byteLength(JSON.stringify(body));
  };
  // The room the service keeps for the envelope: our frame id, and `re` echoing a request id of
  // up to MAX_ID_LENGTH characters of 3 bytes each (reply.ts).
  const envelope = 64 + 3 * MAX_ID_LENGTH;

  it('a body that fills the bound exactly is sent; one byte more is limit', async () => {
    const empty = bodyBytes(await textOf(0, 0));
    const room = MAX_FRAME_BYTES - envelope - empty;
    // Mostly three-byte characters: their UTF-16 length is a third of their bytes, so the check
    // cannot be settled by the length alone.
    const wide = Math.floor(room / 3);
    const fits = await textOf(wide, room - 3 * wide);
    expect(fits.kind).toBe('PROPOSALS');
    expect(bodyBytes(fits) + envelope).toBe(MAX_FRAME_BYTES);
    const over = (await textOf(wide, room - 3 * wide + 1)) as ErrorReply;
    expect(over).toMatchObject({ kind: 'ERROR', code: 'limit' });
    expect(over.message).toContain('1 MiB');
  });

  it('a body of half a MiB of ASCII is sent: only its bytes count, not three per character', async () => {
    const reply = await textOf(0, 512 * 1024);
    expect(reply.kind).toBe('PROPOSALS');
  });
});

describe('§4.6 EXPAND handles are kept within a bound per pool, oldest out first', async () => {
  const clock = testClock();
  const store = new MemoryStore();
  const token = await grant(principal, agent, BASE_CAVEATS);
  const bounded = defineService({
    id: SERVICE_ID,
    name: 'Bounded',
    trust,
    clock: clock.now,
    store,
    retainedHandles: { handles: 3 },
    requireGrants: { ask: false },
  });
  bounded.ask('acme.list', {
    params: { 'count?': 'int' },
    requireGrant: false,
    run: (params) => ({ rows: Array.from({ length: Number(params.count ?? 50) }, (_, i) => i) }),
  });
  bounded.ask('acme.mine', {
    requireGrant: true,
    run: () => ({ rows: Array.from({ length: 50 }, (_, i) => `row ${i}`) }),
  });

  const handleOf = (reply: unknown): string => {
    const handle = (reply as AnswerReply).more?.[0]?.handle;
    if (handle === undefined) throw new Error('no handle');
    return handle;
  };
  const expand = async (handle: string, signed: boolean) =>
    (
      await send(
        bounded,
        await request(
          { verb: 'EXPAND', handle, budget: 30 },
          signed ? { key: agent, grants: [token], ts: T0 } : undefined,
        ),
      )
    ).reply;

  it('an unauthenticated flood keeps the newest handles only, and an agent keeps its own', async () => {
    const ask = async (capability: string, signed: boolean) =>
      handleOf(
        (
          await send(
            bounded,
            await request(
              { verb: 'ASK', capability, budget: 20 },
              signed ? { key: agent, grants: [token], ts: T0 } : undefined,
            ),
          )
        ).reply,
      );
    const mine = await ask('acme.mine', true);
    const flood: string[] = [];
    for (let i = 0; i < 10; i++) flood.push(await ask('acme.list', false));
    for (const [i, handle] of flood.entries()) {
      const reply = await expand(handle, false);
      expect(reply.kind).toBe(i < 7 ? 'ERROR' : 'ANSWER');
      if (reply.kind === 'ERROR') expect(reply).toMatchObject({ code: 'not_found' });
    }
    expect((await expand(mine, true)).kind).toBe('ANSWER');
    expect(await store.getHandle(flood[0] as string)).toBeUndefined();
  });

  it("an agent's EXPAND keeps the rest in the agent's pool, out of reach of a flood", async () => {
    const signed = { key: agent, grants: [token], ts: T0 };
    const asked = (
      await send(
        bounded,
        await request({ verb: 'ASK', capability: 'acme.mine', budget: 20 }, signed),
      )
    ).reply;
    const rest = handleOf(await expand(handleOf(asked), true));
    for (let i = 0; i < 10; i++) {
      await send(bounded, await request({ verb: 'ASK', capability: 'acme.list', budget: 20 }));
    }
    expect((await expand(rest, true)).kind).toBe('ANSWER');
  });

  it('a proof alone, or a grant from a principal nobody trusts, shares the unauthenticated pool', async () => {
    // Each request comes from a key of its own: were every verified key given a pool, fresh
    // keys would make the service keep a handle each, without bound.
    const handles: string[] = [];
    for (let i = 0; i < 8; i++) {
      const key = await keyPairFromSeed(new Uint8Array(32).fill(100 + i));
      const untrusted = [await grant(mallory, key, BASE_CAVEATS)];
      const signer = i % 2 === 0 ? { key, ts: T0 } : { key, grants: untrusted, ts: T0 };
      const reply = (
        await send(
          bounded,
          await request({ verb: 'ASK', capability: 'acme.list', budget: 20 }, signer),
        )
      ).reply;
      handles.push(handleOf(reply));
    }
    const kept = [];
    for (const id of handles) if ((await store.getHandle(id)) !== undefined) kept.push(id);
    expect(kept).toEqual(handles.slice(-3));
  });

  it('repeated EXPANDs of one handle stay in its pool, within the bound', async () => {
    const first = (
      await send(
        bounded,
        await request({ verb: 'ASK', capability: 'acme.list', params: { count: 400 }, budget: 30 }),
      )
    ).reply;
    let handle = handleOf(first);
    const issued = [handle];
    for (let i = 0; i < 6; i++) {
      const slice = await expand(handle, false);
      handle = handleOf(slice);
      issued.push(handle);
    }
    const kept = [];
    for (const id of issued) if ((await store.getHandle(id)) !== undefined) kept.push(id);
    expect(kept).toEqual(issued.slice(-3));
    expect(UNAUTHENTICATED_POOL).toBe('');
  });
});
