import {
  type Caveat,
  type EventReply,
  encodeGrant,
  type FinalReply,
  issueGrant,
  type KeyPair,
  keyPairFromSeed,
  proofTarget,
  publicKeyString,
  type Request,
  signProof,
  type Verb,
} from '@parley/protocol';
import { defineService, MemoryStore, type Service, type Store } from '../src/index.js';

/** Deterministic keys: seeds 1..4 repeated. */
export async function keys() {
  const seed = (n: number) => new Uint8Array(32).fill(n);
  const [principal, agent, other, mallory] = await Promise.all(
    [1, 2, 3, 4].map((n) => keyPairFromSeed(seed(n))),
  );
  return { principal, agent, other, mallory } as {
    principal: KeyPair;
    agent: KeyPair;
    other: KeyPair;
    mallory: KeyPair;
  };
}

export const T0 = 1_790_000_000;

/** A clock tests can move. */
export function testClock(start = T0) {
  let now = start;
  return {
    now: () => now,
    advance(seconds: number) {
      now += seconds;
    },
    set(t: number) {
      now = t;
    },
  };
}

export const SERVICE_ID = 'acme.example';

/** A root grant token from `principal` to `holder` with these caveats. */
export async function grant(
  principal: KeyPair,
  holder: KeyPair,
  caveats: Caveat[],
  iat = T0,
): Promise<string> {
  return encodeGrant(await issueGrant(principal, { sub: publicKeyString(holder), caveats, iat }));
}

let frame = 0;

/** A request frame, signed by `key` (with `grants`) when given (§6.5). */
export async function request(
  body: { verb: Verb; id?: string; [field: string]: unknown },
  signer?: { key: KeyPair; grants?: string[]; ts: number },
): Promise<Request> {
  const req = { parley: 1, id: body.id ?? `c${++frame}`, ...body } as unknown as Request;
  if (signer === undefined) return req;
  if (signer.grants !== undefined) req.grants = signer.grants;
  req.proof = await signProof(signer.key, {
    aud: SERVICE_ID,
    verb: req.verb,
    target: proofTarget(req),
    ts: signer.ts,
  });
  return req;
}

/** Sends a frame to a service and collects its EVENTs. */
export async function send(
  service: Service,
  req: unknown,
): Promise<{ reply: FinalReply; events: EventReply[] }> {
  const events: EventReply[] = [];
  const reply = await service.handle(req, { onEvent: (e) => events.push(e) });
  return { reply, events };
}

/** What the toy service's external effects did, for never-twice checks. */
export type Outside = { sent: string[]; failNext: boolean; hold?: Promise<void> };

/** A toy service exercising every verb: reads, a transactional purchase, an external send. */
export function toyService(options: {
  trust: string[];
  clock: () => number;
  store?: Store;
  outside?: Outside;
  requireGrants?: { ask?: boolean; intent?: boolean };
  /** docs/extensions.md §E1. */
  receiptKey?: KeyPair;
  /** docs/extensions.md §E2. */
  revocation?: boolean;
  /** docs/extensions.md §E4. */
  approvals?: boolean;
  /** docs/extensions.md §E3. */
  audit?: boolean;
}) {
  const outside = options.outside ?? { sent: [], failNext: false };
  const service = defineService({
    id: SERVICE_ID,
    name: 'Acme',
    summary: 'A toy service for tests.',
    trust: options.trust,
    clock: options.clock,
    store: options.store ?? new MemoryStore(),
    log: () => {},
    ...(options.requireGrants === undefined ? {} : { requireGrants: options.requireGrants }),
    ...(options.receiptKey === undefined ? {} : { receiptKey: options.receiptKey }),
    ...(options.revocation === undefined ? {} : { revocation: options.revocation }),
    ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
    ...(options.audit === undefined ? {} : { audit: options.audit }),
  });
  service.ask('acme.echo', {
    summary: 'Echo the params',
    params: {
      text: 'string',
      'n?': 'int',
      'mode?': 'fast|slow',
      'opts?': { 'loud?': 'bool' },
      'tags?': 'string[]',
    },
    run: (params) => ({ echo: params }),
  });
  service.ask('acme.list', {
    summary: 'A long list',
    params: { 'count?': 'int' },
    run: (params) => ({
      rows: Array.from(
        { length: typeof params.count === 'number' ? params.count : 100 },
        (_, i) => ({ n: i, word: `item-${i}` }),
      ),
    }),
  });
  service.intent('acme.buy', {
    summary: 'Buy something',
    params: {
      amount: 'int',
      'undoable?': 'bool',
      'risk?': 'low|medium|high',
      'alternatives?': 'int',
    },
    risk: 'low',
    transactional: true,
    plan(params) {
      const amount = params.amount as number;
      const count = typeof params.alternatives === 'number' ? params.alternatives : 1;
      return Array.from({ length: count }, (_, i) => ({
        summary: `Buy for ${amount + i} cents`,
        effects: [{ op: 'charge' as const, target: 'card', detail: `${amount + i}` }],
        cost: amount + i === 0 ? null : { amount: amount + i, currency: 'USD' },
        risk: (params.risk as 'low' | 'medium' | 'high' | undefined) ?? 'low',
        undoWindow: params.undoable === false ? null : 3600,
        action: { amount: amount + i },
        data: { note: 'not hashed' },
      }));
    },
    async apply(action, ctx) {
      const n = (await ctx.data.list('bought/')).length;
      ctx.progress('charging', 0.5);
      await ctx.data.put(`bought/${String(n).padStart(4, '0')}`, action);
      return { bought: n };
    },
    async revert(action, ctx) {
      const rows = await ctx.data.list('bought/');
      const last = rows[rows.length - 1];
      if (last !== undefined) await ctx.data.delete(last[0]);
      return { result: { refunded: action } };
    },
  });
  service.intent('acme.send', {
    summary: 'Send a message (an effect outside the store)',
    params: { to: 'string' },
    plan: (params) => [
      {
        summary: `Send to ${String(params.to)}`,
        effects: [{ op: 'send', target: String(params.to) }],
        undoWindow: null,
        action: { to: String(params.to) },
      },
    ],
    async apply(action) {
      if (outside.hold !== undefined) await outside.hold;
      if (outside.failNext) {
        outside.failNext = false;
        throw new Error('mail server down');
      }
      outside.sent.push(String((action as { to: string }).to));
      return { sent: true };
    },
  });
  return { service, outside };
}

/** The grant every story starts from: this service, every capability. */
export const BASE_CAVEATS: Caveat[] = [{ svc: [SERVICE_ID] }, { can: ['acme.*'] }];

/**
 * A toy service on a MemoryStore trusting `trust`, with a moveable clock and an agent holding a
 * grant from `principal` with these caveats; `signer()` signs the agent's requests with it.
 */
export async function agentSetup(options: {
  principal: KeyPair;
  agent: KeyPair;
  trust: string[];
  caveats?: Caveat[];
  receiptKey?: KeyPair;
}) {
  const clock = testClock();
  const store = new MemoryStore();
  const toy = toyService({
    trust: options.trust,
    clock: clock.now,
    store,
    ...(options.receiptKey === undefined ? {} : { receiptKey: options.receiptKey }),
  });
  const token = await grant(options.principal, options.agent, options.caveats ?? BASE_CAVEATS);
  const signer = (ts = clock.now()) => ({ key: options.agent, grants: [token], ts });
  return { ...toy, clock, store, token, signer };
}
