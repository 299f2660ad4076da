import {
  type ErrorReply,
  type JsonValue,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
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
    await c.commit(first);
    expect((await c.commit(second)).kind).toBe('RECEIPT');
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
    expect(refused.message).toContain('the commit cannot be undone');
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
