import {
  type ErrorReply,
  type JsonValue,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { holdsUpdates } from '../src/dispatch/hold-effects.js';
import {
  type CurrentValue,
  defineService,
  type IntentDefinition,
  MemoryStore,
} from '../src/index.js';
import { grant, keys, request, SERVICE_ID, send, T0 } from './harness.js';

const { principal, agent } = await keys();

type Counter = { value: number };

/**
 * A counter service: `count.add` declares `counter/{name}.value: from → from + by` and its apply
 * adds `step` (by default `by`), so a test can make apply do more than it declared.
 */
async function counterService(
  options: { current?: 'data' | CurrentValue; transactional?: boolean; step?: number } = {},
) {
  const store = new MemoryStore();
  for (const name of ['a', 'b']) await store.data.put(`counter/${name}`, { value: 0 });
  const logged: unknown[] = [];
  const service = defineService({
    id: SERVICE_ID,
    name: 'Counter',
    trust: [publicKeyString(principal)],
    clock: () => T0,
    store,
    log: (_message, error) => logged.push(error),
  });
  let outside = 0;
  const definition: IntentDefinition = {
    params: { name: 'string', by: 'int', 'twice?': 'bool' },
    transactional: options.transactional ?? true,
    async plan(params, ctx) {
      const key = `counter/${String(params.name)}`;
      const from = ((await ctx.data.get(key)) as Counter | undefined)?.value ?? 0;
      const update = {
        op: 'update' as const,
        target: key,
        field: 'value',
        from,
        to: from + Number(params.by),
      };
      return [
        {
          summary: `Add ${String(params.by)}`,
          effects: params.twice === true ? [update, { ...update }] : [update],
          undoWindow: 600,
          action: { key, by: Number(params.by) },
        },
      ];
    },
    async apply(action, ctx) {
      const { key, by } = action as { key: string; by: number };
      const value = ((await ctx.data.get(key)) as Counter | undefined)?.value ?? 0;
      outside++;
      await ctx.data.put(key, { value: value + (options.step ?? by) });
      return null;
    },
    async revert(action, ctx) {
      const { key, by } = action as { key: string; by: number };
      const value = ((await ctx.data.get(key)) as Counter).value;
      await ctx.data.put(key, { value: value - by });
      return undefined;
    },
  };
  if (options.current !== undefined) definition.current = options.current;
  service.intent('count.add', definition);
  const token = await grant(principal, agent, [{ svc: [SERVICE_ID] }, { can: ['count.*'] }]);
  const signer = { key: agent, grants: [token], ts: T0 };
  const propose = async (params: Record<string, JsonValue>) => {
    const frame = await request({ verb: 'INTENT', capability: 'count.add', params }, signer);
    return (await send(service, frame)).reply as ProposalsReply;
  };
  const commit = async (reply: ProposalsReply) => {
    const [p] = reply.proposals;
    if (p === undefined) throw new Error(`no proposal: ${JSON.stringify(reply)}`);
    const frame = await request({ verb: 'COMMIT', proposal: p.id, hash: p.hash }, signer);
    return (await send(service, frame)).reply;
  };
  const undo = async (receipt: string) =>
    (await send(service, await request({ verb: 'UNDO', receipt }, signer))).reply;
  const value = async (name: string) =>
    ((await store.data.get(`counter/${name}`)) as Counter | undefined)?.value ?? 0;
  return {
    store,
    logged,
    propose,
    commit,
    undo,
    value,
    outsideCalls: () => outside,
  };
}

describe('§5.1 `current`: COMMIT holds the world to the declared from values', () => {
  it.each([
    ['transactional', true],
    ['with effects outside the store', false],
  ])(
    '%s: of two proposals made at one value, the second is conflict and changes nothing',
    async (_what, transactional) => {
      const c = await counterService({ current: 'data', transactional });
      const first = await c.propose({ name: 'a', by: 2 });
      const second = await c.propose({ name: 'a', by: 2 });
      expect((await c.commit(first)).kind).toBe('RECEIPT');
      const refused = (await c.commit(second)) as ErrorReply;
      expect(refused).toMatchObject({ kind: 'ERROR', code: 'conflict' });
      expect(refused.message).toBe(
        'counter/a.value is 2 now, not 0 as when this was proposed; re-run the INTENT (§5.1)',
      );
      expect(await c.value('a')).toBe(2);
      expect(c.outsideCalls()).toBe(1);
      // Nothing is left claimed: a proposal made at the new value commits.
      expect((await c.commit(await c.propose({ name: 'a', by: 2 }))).kind).toBe('RECEIPT');
      expect(await c.value('a')).toBe(4);
    },
  );

  it('without `current`, nothing is checked (the service holds the world itself)', async () => {
    const c = await counterService();
    const first = await c.propose({ name: 'a', by: 2 });
    const second = await c.propose({ name: 'a', by: 2 });
    const receipt = (await c.commit(first)) as ReceiptReply;
    expect((await c.commit(second)).kind).toBe('RECEIPT');
    // Nor is a transactional UNDO held to anything: it reverts, though the value moved since.
    expect((await c.undo(receipt.receipt.id)).kind).toBe('RECEIPT');
    expect(await c.value('a')).toBe(2);
  });

  it('a reader of its own: `current` as a function', async () => {
    const reads: string[] = [];
    const c = await counterService({
      current: async (effect, data) => {
        reads.push(`${effect.target}.${effect.field}`);
        return ((await data.get(effect.target)) as Counter | undefined)?.value ?? 0;
      },
    });
    const first = await c.propose({ name: 'b', by: 1 });
    const second = await c.propose({ name: 'b', by: 1 });
    await c.commit(first);
    expect(await c.commit(second)).toMatchObject({ code: 'conflict' });
    expect(reads).toContain('counter/b.value');
  });

  it('a transactional apply that does more than it declared is rolled back, as internal', async () => {
    const c = await counterService({ current: 'data', step: 5 });
    const reply = await c.commit(await c.propose({ name: 'a', by: 2 }));
    expect(reply).toMatchObject({ kind: 'ERROR', code: 'internal' });
    expect(await c.value('a')).toBe(0);
    expect(String(c.logged[0])).toContain('counter/a.value became 5, not the declared 2');
  });

  it('§4.5: UNDO holds the world to the receipt`s to values', async () => {
    const c = await counterService({ current: 'data' });
    const receipt = (await c.commit(await c.propose({ name: 'a', by: 2 }))) as ReceiptReply;
    await c.store.data.put('counter/a', { value: 7 });
    const refused = (await c.undo(receipt.receipt.id)) as ErrorReply;
    expect(refused).toMatchObject({ code: 'conflict' });
    // The message names the value found, as COMMIT's conflict does.
    expect(refused.message).toBe(
      'counter/a.value is 7 now, not 2 as when it was committed; the commit cannot be undone (§5.1)',
    );
    expect(await c.value('a')).toBe(7);
    await c.store.data.put('counter/a', { value: 2 });
    expect((await c.undo(receipt.receipt.id)).kind).toBe('RECEIPT');
    expect(await c.value('a')).toBe(0);
  });

  it('a plan that declares two updates of one field is a service bug, never offered', async () => {
    const c = await counterService({ current: 'data' });
    const reply = await c.propose({ name: 'a', by: 1, twice: true });
    expect(reply).toMatchObject({ kind: 'ERROR', code: 'internal' });
    expect(String(c.logged[0])).toContain('both update counter/a.value');
  });
});

/**
 * A document service whose intents declare the effect shapes the counter's do not: two fields
 * of one target, an update without a `from`, a create, an update of a whole target. The stored
 * document has a member named "undefined", which a field-less update must never read.
 */
async function docService() {
  const store = new MemoryStore();
  const doc = { title: 'a', body: 'b', undefined: 'not a field' };
  await store.data.put('doc/1', doc);
  const service = defineService({
    id: SERVICE_ID,
    name: 'Docs',
    trust: [publicKeyString(principal)],
    clock: () => T0,
    store,
  });
  type Doc = { title: string; body: string };
  const read = async (ctx: { data: { get(key: string): Promise<unknown> } }) =>
    (await ctx.data.get('doc/1')) as Doc;
  const base = { params: { 'to?': 'string' }, transactional: true, current: 'data' as const };
  // Both fields of one target, each from what it is now; UNDO puts both back.
  service.intent('doc.swap', {
    ...base,
    async plan(_params, ctx) {
      const now = await read(ctx);
      return [
        {
          summary: 'Swap title and body',
          effects: [
            { op: 'update', target: 'doc/1', field: 'title', from: now.title, to: now.body },
            { op: 'update', target: 'doc/1', field: 'body', from: now.body, to: now.title },
          ],
          undoWindow: 600,
          action: null,
        },
      ];
    },
    async apply(_action, ctx) {
      const now = await read(ctx);
      await ctx.data.put('doc/1', { ...now, title: now.body, body: now.title });
      return null;
    },
    async revert(_action, ctx) {
      const now = await read(ctx);
      await ctx.data.put('doc/1', { ...now, title: now.body, body: now.title });
      return undefined;
    },
  });
  // An update that declares only its `to` (it does not say what was there), and a create.
  service.intent('doc.copy', {
    ...base,
    async plan(params) {
      const to = String(params.to ?? 'copied');
      return [
        {
          summary: 'Set the body, and file a copy',
          effects: [
            { op: 'update', target: 'doc/1', field: 'body', to },
            { op: 'create', target: 'doc/2', field: 'title', to: 'copy' },
          ],
          action: to,
        },
      ];
    },
    async apply(action, ctx) {
      const now = await read(ctx);
      await ctx.data.put('doc/1', { ...now, body: String(action) });
      // The copy is filed under its own key, not as doc/2's title: a create is not an update.
      await ctx.data.put('copies/doc/2', { name: 'copy' });
      return null;
    },
  });
  // An update of the whole target, declared from a value it does not have.
  service.intent('doc.stamp', {
    ...base,
    async plan() {
      return [
        {
          summary: 'Stamp the document',
          effects: [{ op: 'update', target: 'doc/1', from: 'draft', to: 'final' }],
          action: null,
        },
      ];
    },
    async apply() {
      return null;
    },
  });
  // An update of the whole target from nothing to nothing: it reads as null either side.
  service.intent('doc.touch', {
    ...base,
    async plan() {
      return [
        {
          summary: 'Touch the document',
          effects: [{ op: 'update', target: 'doc/1', from: null, to: null }],
          action: null,
        },
      ];
    },
    async apply() {
      return null;
    },
  });
  const token = await grant(principal, agent, [{ svc: [SERVICE_ID] }, { can: ['doc.*'] }]);
  const signer = { key: agent, grants: [token], ts: T0 };
  const commitOf = async (capability: string, params: Record<string, JsonValue> = {}) => {
    const frame = await request({ verb: 'INTENT', capability, params }, signer);
    const offered = (await send(service, frame)).reply as ProposalsReply;
    const [p] = offered.proposals;
    if (p === undefined) throw new Error(`no proposal: ${JSON.stringify(offered)}`);
    const commit = await request({ verb: 'COMMIT', proposal: p.id, hash: p.hash }, signer);
    return (await send(service, commit)).reply;
  };
  const undo = async (receipt: string) =>
    (await send(service, await request({ verb: 'UNDO', receipt }, signer))).reply;
  return { store, commitOf, undo, doc: async () => (await store.data.get('doc/1')) as Doc };
}

describe('§5.1 `current`: which effects are held, and to what', () => {
  it('UNDO of two updates of one target holds each field to its own value', async () => {
    const d = await docService();
    const receipt = (await d.commitOf('doc.swap')) as ReceiptReply;
    expect(receipt.kind).toBe('RECEIPT');
    expect(await d.doc()).toMatchObject({ title: 'b', body: 'a' });
    expect((await d.undo(receipt.receipt.id)).kind).toBe('RECEIPT');
    expect(await d.doc()).toMatchObject({ title: 'a', body: 'b' });
  });

  it('an update that declares no `from` is not held to one; a create is not held to its `to`', async () => {
    const d = await docService();
    const reply = await d.commitOf('doc.copy', { to: 'new body' });
    expect(reply.kind).toBe('RECEIPT');
    expect(await d.doc()).toMatchObject({ title: 'a', body: 'new body' });
  });

  it('a conflict on an update of a whole target names the target alone', async () => {
    const d = await docService();
    const refused = (await d.commitOf('doc.stamp')) as ErrorReply;
    expect(refused).toMatchObject({ kind: 'ERROR', code: 'conflict' });
    expect(refused.message).toBe(
      'doc/1 is null now, not "draft" as when this was proposed; re-run the INTENT (§5.1)',
    );
  });

  it('with `current: data`, an update of a whole target reads as nothing there', async () => {
    const d = await docService();
    expect((await d.commitOf('doc.touch')).kind).toBe('RECEIPT');
  });
});

describe('§5.1 holdsUpdates: whether a COMMIT reads values back at all', () => {
  const update = { op: 'update' as const, target: 'counter/a', field: 'value', from: 0, to: 1 };
  const charge = { op: 'charge' as const, target: 'card ••4242' };
  const plan = () => [];
  const apply = () => null;

  it('is true only for a capability with `current` and an update among the effects', () => {
    const reading: IntentDefinition = { params: {}, current: 'data', plan, apply };
    const custom: IntentDefinition = { params: {}, current: async () => 0, plan, apply };
    const blind: IntentDefinition = { params: {}, plan, apply };
    expect(holdsUpdates(reading, [charge, update])).toBe(true);
    expect(holdsUpdates(custom, [update])).toBe(true);
    expect(holdsUpdates(reading, [charge])).toBe(false);
    expect(holdsUpdates(blind, [update])).toBe(false);
  });
});
