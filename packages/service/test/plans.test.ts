// What an INTENT's plan becomes on the wire (§4.3, §5.1) and what apply's progress sends (§5):
// outcomes mutation testing (npm run mutate -- dispatch-execute) showed were unchecked.
import {
  type ErrorReply,
  type EventReply,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { clarify, defineService, MemoryStore } from '../src/index.js';
import { agentSetup, keys, request, SERVICE_ID, send, T0, toyService } from './harness.js';

const { principal, agent } = await keys();
const trust = [publicKeyString(principal)];

async function setup() {
  const s = await agentSetup({ principal, agent, trust });
  const intent = async (capability: string, params: Record<string, unknown> = {}) =>
    (await send(s.service, await request({ verb: 'INTENT', capability, params }, s.signer())))
      .reply;
  return { ...s, intent };
}

describe('§4.3 what a plan answers', () => {
  it('a question is CLARIFY with its options', async () => {
    const s = await setup();
    const options = [{ label: 'Monday', params: { day: 'mon' } }];
    s.service.intent('acme.ask', {
      params: {},
      plan: () => clarify('Which day?', options),
      apply: () => ({}),
    });
    expect(await s.intent('acme.ask')).toEqual({
      parley: 1,
      id: expect.any(String),
      re: expect.any(String),
      kind: 'CLARIFY',
      question: 'Which day?',
      options,
    });
  });

  it('no proposal at all is conflict', async () => {
    const s = await setup();
    s.service.intent('acme.none', { params: {}, plan: () => [], apply: () => ({}) });
    const reply = (await s.intent('acme.none')) as ErrorReply;
    expect(`${reply.code}: ${reply.message}`).toBe(
      'conflict: there is no way to do this right now; change the request or try later',
    );
  });

  it('§5.1: a draft without an undo window is irreversible, and keeps its data beside the hash', async () => {
    const s = await setup();
    s.service.intent('acme.plain', {
      params: {},
      plan: () => [
        { summary: 'Plain', effects: [{ op: 'send', target: 'x' }], action: null, data: { n: 1 } },
      ],
      apply: () => ({}),
    });
    const [p] = ((await s.intent('acme.plain')) as ProposalsReply).proposals;
    expect(p?.undo).toBeNull();
    expect(p?.data).toEqual({ n: 1 });
  });

  it('§5.1: an undo window without a revert is a bug of the service, never an offer', async () => {
    const s = await setup();
    s.service.intent('acme.oneway', {
      params: {},
      plan: () => [
        {
          summary: 'One way',
          effects: [{ op: 'send', target: 'x' }],
          action: null,
          undoWindow: 60,
        },
      ],
      apply: () => ({}),
    });
    const reply = (await s.intent('acme.oneway')) as ErrorReply;
    expect(reply).toMatchObject({ kind: 'ERROR', code: 'internal' });
  });

  // §5.1 (draft.ts): what a plan may return is checked before it is hashed and offered. A draft
  // the spec does not allow is the service's bug: the agent gets `internal` and nothing to
  // commit (the words of the check go to the service's log, not to the agent).
  const draft = (extra: Record<string, unknown>) => ({
    summary: 'Do it',
    effects: [{ op: 'send', target: 'x' }],
    action: null,
    ...extra,
  });
  const update = (target: string, field?: string) => ({
    op: 'update',
    target,
    ...(field === undefined ? {} : { field }),
    from: 1,
    to: 2,
  });
  const refused: [string, Record<string, unknown>][] = [
    ['no summary', draft({ summary: undefined })],
    ['an empty summary', draft({ summary: '' })],
    ['a summary that is not a string', draft({ summary: 7 })],
    ['effects that are not a list', draft({ effects: { op: 'send', target: 'x' } })],
    ['an effect that is not an object', draft({ effects: ['send x'] })],
    ['an effect that is a list', draft({ effects: [['send', 'x']] })],
    ['an effect with an unknown op', draft({ effects: [{ op: 'explode', target: 'x' }] })],
    ['an effect without a target', draft({ effects: [{ op: 'send' }] })],
    [
      'an effect with a target that is not a string',
      draft({ effects: [{ op: 'send', target: 1 }] }),
    ],
    ['a from that is an object', draft({ effects: [{ ...update('x'), from: { a: 1 } }] })],
    ['a to that is a list', draft({ effects: [{ ...update('x'), to: [1] }] })],
    [
      'a to that is not finite',
      draft({ effects: [{ ...update('x'), to: Number.POSITIVE_INFINITY }] }),
    ],
    ['a from that is NaN', draft({ effects: [{ ...update('x'), from: Number.NaN }] })],
    ['two updates of one field', draft({ effects: [update('x', 'f'), update('x', 'f')] })],
    ['two updates of one whole target', draft({ effects: [update('x'), update('x')] })],
    ['a cost of a fraction', draft({ cost: { amount: 1.5, currency: 'USD' } })],
    ['a cost beyond a safe integer', draft({ cost: { amount: 2 ** 53, currency: 'USD' } })],
    ['a cost without a currency', draft({ cost: { amount: 1 } })],
    ['a cost with an empty currency', draft({ cost: { amount: 1, currency: '' } })],
    ['an unknown risk', draft({ risk: 'extreme' })],
    ['an undo window of 0', draft({ undoWindow: 0 })],
    ['a negative undo window', draft({ undoWindow: -60 })],
    ['an undo window of a fraction', draft({ undoWindow: 1.5 })],
    ['an expiresIn of 0', draft({ expiresIn: 0 })],
    ['a negative expiresIn', draft({ expiresIn: -1 })],
    ['an expiresIn of a fraction', draft({ expiresIn: 0.5 })],
  ];
  it.each(refused)('§5.1: a draft with %s is internal, never offered', async (_what, bad) => {
    const s = await setup();
    s.service.intent('acme.bad', {
      params: {},
      plan: () => [bad as never],
      apply: () => ({}),
      revert: () => undefined,
    });
    const reply = (await s.intent('acme.bad')) as ErrorReply;
    expect(reply).toMatchObject({ kind: 'ERROR', code: 'internal' });
  });

  const offered: [string, Record<string, unknown>][] = [
    ['no effects', draft({ effects: [] })],
    [
      'scalar from and to of every kind',
      draft({
        effects: [
          { op: 'update', target: 'a', from: null, to: 'x' },
          { op: 'update', target: 'b', from: true, to: false },
          { op: 'update', target: 'c', from: -1, to: 0 },
          { op: 'create', target: 'd' },
        ],
      }),
    ],
    [
      'updates of two fields of one target, and of one field of two targets',
      draft({ effects: [update('x', 'f'), update('x', 'g'), update('y', 'f'), update('x')] }),
    ],
    [
      'an update and a create of one field',
      draft({ effects: [update('x', 'f'), { op: 'create', target: 'x', field: 'f' }] }),
    ],
    ['a free cost', draft({ cost: { amount: 0, currency: 'USD' } })],
    ['a null cost', draft({ cost: null })],
    ['a risk of high', draft({ risk: 'high' })],
    ['an undo window of one second', draft({ undoWindow: 1 })],
    ['a null undo window', draft({ undoWindow: null })],
    ['an expiresIn of one second', draft({ expiresIn: 1 })],
  ];
  it.each(offered)('§5.1: a draft with %s is offered', async (_what, good) => {
    const s = await setup();
    s.service.intent('acme.good', {
      params: {},
      plan: () => [good as never],
      apply: () => ({}),
      revert: () => undefined,
    });
    const reply = (await s.intent('acme.good')) as ProposalsReply;
    expect(reply.kind, JSON.stringify(reply)).toBe('PROPOSALS');
    expect(reply.proposals[0]?.effects).toEqual(good.effects);
  });

  it('§5.1: expires is the end of the TTL rounded up to a whole minute', async () => {
    const s = await setup();
    const [p] = ((await s.intent('acme.buy', { amount: 1 })) as ProposalsReply).proposals;
    const expires = p?.expires as number;
    expect(expires % 60).toBe(0);
    expect(expires).toBeGreaterThan(T0);
    expect(expires - 60).toBeLessThan(T0 + 600);
  });

  it('§3: a service that requires grants for INTENT refuses one without', async () => {
    const { service } = toyService({ trust, clock: () => T0, requireGrants: { intent: true } });
    const { reply } = await send(
      service,
      await request({ verb: 'INTENT', capability: 'acme.buy', params: { amount: 1 } }),
    );
    expect(`${(reply as ErrorReply).code}: ${(reply as ErrorReply).message}`).toBe(
      'unauthorized: INTENT here needs grants and a proof (§3)',
    );
  });
});

describe('§5 progress from apply', () => {
  it('becomes EVENTs with a fraction in [0, 1] only when it is a number, and none without a listener', async () => {
    const s = await setup();
    s.service.intent('acme.steps', {
      params: {},
      transactional: true,
      plan: () => [
        {
          summary: 'Steps',
          effects: [{ op: 'update', target: 'x' }],
          action: null,
          undoWindow: 60,
        },
      ],
      apply: (_action, ctx) => {
        ctx.progress('plain');
        ctx.progress('not a number', Number.NaN);
        ctx.progress('over', 2);
        return {};
      },
      revert: () => ({}),
    });
    const [p] = ((await s.intent('acme.steps')) as ProposalsReply).proposals;
    const commit = await request({ verb: 'COMMIT', proposal: p?.id, hash: p?.hash }, s.signer());
    const { reply, events } = await send(s.service, commit);
    expect(reply.kind).toBe('RECEIPT');
    expect(events.map((e: EventReply) => [e.message, e.progress])).toEqual([
      ['plain', undefined],
      ['not a number', undefined],
      ['over', 1],
    ]);
    const [q] = ((await s.intent('acme.steps')) as ProposalsReply).proposals;
    const quiet = await request({ verb: 'COMMIT', proposal: q?.id, hash: q?.hash }, s.signer());
    expect(((await s.service.handle(quiet)) as ReceiptReply).kind).toBe('RECEIPT');
  });
});

describe('§4.4 a proposal whose capability is gone', () => {
  it('is unavailable, after a restart without that capability', async () => {
    const store = new MemoryStore();
    const first = toyService({ trust, clock: () => T0, store }).service;
    const s = await agentSetup({ principal, agent, trust });
    const intent = await request(
      { verb: 'INTENT', capability: 'acme.buy', params: { amount: 1 } },
      s.signer(T0),
    );
    const [p] = ((await send(first, intent)).reply as ProposalsReply).proposals;
    const restarted = defineService({
      id: SERVICE_ID,
      name: 'Acme',
      summary: 'Acme without acme.buy.',
      trust,
      clock: () => T0,
      store,
      log: () => {},
    });
    const commit = await request(
      { verb: 'COMMIT', proposal: p?.id, hash: p?.hash },
      { key: agent, grants: [s.token], ts: T0 },
    );
    const reply = (await send(restarted, commit)).reply as ErrorReply;
    expect(`${reply.code}: ${reply.message}`).toBe(
      'unavailable: capability acme.buy is no longer offered by this service',
    );
  });
});
