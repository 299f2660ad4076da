/**
 * The model's side of the cost: the replies of the real example services (calendar and shop, on
 * a pinned clock), each counted with o200k (gpt-tokenizer, offline) as its Lens and as minified
 * JSON, and the spec's estimate (§8) of its Lens against o200k.
 */
import { CALENDAR_ID, createCalendarService } from '@parley/examples/calendar';
import { createShopService, SHOP_ID } from '@parley/examples/shop';
import {
  estimateTokens,
  type FinalReply,
  type KeyPair,
  type Proposal,
  publicKeyString,
  renderLens,
} from '@parley/protocol';
import type { Service } from '@parley/service';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { BenchAgent, type FrameBody } from './service-agent.js';

export type ExampleReply = { what: string; reply: FinalReply };

export type TokenCost = {
  what: string;
  /** o200k tokens of renderLens(reply). */
  lens: number;
  /** o200k tokens of JSON.stringify(reply), the whole frame as the service returns it. */
  json: number;
  /** The same without the envelope (`parley`, `id`, `re`), which the Lens leaves out too. */
  jsonBody: number;
  /** estimateTokens(renderLens(reply)) (§8). */
  estimate: number;
};

/** What a signed agent sends to one service, checked to be the kind the story expects. */
function talker(service: Service, agent: BenchAgent) {
  return async (body: FrameBody, kind: FinalReply['kind']): Promise<FinalReply> => {
    const request = body.verb === 'HELLO' ? agent.frame(body) : await agent.signed(body);
    const reply = await service.handle(request);
    if (reply.kind !== kind) throw new Error(`expected ${kind}, got ${JSON.stringify(reply)}`);
    return reply;
  };
}

function proposalsOf(reply: FinalReply): Proposal[] {
  return reply.kind === 'PROPOSALS' ? reply.proposals : [];
}

async function calendarReplies(principal: KeyPair, now: number): Promise<ExampleReply[]> {
  const trust = [publicKeyString(principal)];
  const calendar = await createCalendarService({ trust, clock: () => now, log: () => {} });
  const caveats = [{ svc: [CALENDAR_ID] }, { can: ['calendar.*'] }];
  const send = talker(calendar, await BenchAgent.create(principal, 2, CALENDAR_ID, caveats, now));
  const reschedule = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    verb: 'INTENT' as const,
    capability: 'calendar.reschedule',
    params,
    ...extra,
  });
  const replies: ExampleReply[] = [
    { what: 'calendar BRIEF', reply: await send({ verb: 'HELLO' }, 'BRIEF') },
    {
      what: 'calendar.find answer (the week, 6 events)',
      reply: await send({ verb: 'ASK', capability: 'calendar.find', params: {} }, 'ANSWER'),
    },
    {
      what: 'calendar.reschedule PROPOSALS (1)',
      reply: await send(reschedule({ event: 'e42', to: '2026-09-24T15:00:00Z' }), 'PROPOSALS'),
    },
    {
      what: 'CLARIFY "Which Ana?"',
      reply: await send(
        reschedule({ event: '1:1 with Ana', to: '2026-09-24T15:00:00Z' }),
        'CLARIFY',
      ),
    },
    {
      what: 'auto RECEIPT (calendar.reschedule)',
      reply: await send(
        reschedule({ event: 'e77', to: '2026-09-25T10:00:00Z' }, { auto: true }),
        'RECEIPT',
      ),
    },
  ];
  await calendar.close();
  return replies;
}

async function shopReplies(principal: KeyPair, now: number): Promise<ExampleReply[]> {
  const trust = [publicKeyString(principal)];
  const shop = await createShopService({ trust, clock: () => now, log: () => {} });
  // As in the shop's story: up to 30.00 USD per order without asking.
  const caveats = [
    { svc: [SHOP_ID] },
    { can: ['shop.*'] },
    { per: { max: 3000, currency: 'USD' } },
  ];
  const send = talker(shop, await BenchAgent.create(principal, 2, SHOP_ID, caveats, now));
  const order = (items: { sku: string; qty: number }[], delivery?: string) => ({
    verb: 'INTENT' as const,
    capability: 'shop.order',
    params: delivery === undefined ? { items } : { items, delivery },
  });
  const commitFirst = async (reply: FinalReply, kind: FinalReply['kind']) => {
    const [p] = proposalsOf(reply);
    if (p === undefined) throw new Error('no proposal to commit');
    return send({ verb: 'COMMIT', proposal: p.id, hash: p.hash }, kind);
  };
  const search = (budget?: number) => ({
    verb: 'ASK' as const,
    capability: 'shop.search',
    params: {},
    ...(budget === undefined ? {} : { budget }),
  });
  const proposals = await send(order([{ sku: 'cab-1b', qty: 2 }]), 'PROPOSALS');
  const receipt = await commitFirst(proposals, 'RECEIPT');
  const receiptId = receipt.kind === 'RECEIPT' ? receipt.receipt.id : '';
  const costly = await send(order([{ sku: 'aud-5a', qty: 1 }], 'express'), 'PROPOSALS');
  const replies: ExampleReply[] = [
    { what: 'shop BRIEF', reply: await send({ verb: 'HELLO' }, 'BRIEF') },
    { what: 'shop.search, 66 items, default budget', reply: await send(search(), 'ANSWER') },
    { what: 'shop.search, budget 300 (with More)', reply: await send(search(300), 'ANSWER') },
    { what: 'shop.order PROPOSALS (2)', reply: proposals },
    { what: 'RECEIPT (shop.order)', reply: receipt },
    {
      what: 'undo RECEIPT (shop.order)',
      reply: await send({ verb: 'UNDO', receipt: receiptId }, 'RECEIPT'),
    },
    {
      what: 'invalid_params ERROR with fix',
      reply: await send(order([{ sku: 'cab-1x', qty: 1 }]), 'ERROR'),
    },
    { what: 'consent_required ERROR', reply: await commitFirst(costly, 'ERROR') },
  ];
  await shop.close();
  return replies;
}

/** The example replies, produced by the example services themselves. */
export async function exampleReplies(principal: KeyPair, now: number): Promise<ExampleReply[]> {
  const calendar = await calendarReplies(principal, now);
  const shop = await shopReplies(principal, now);
  const byName = (name: string) => [...calendar, ...shop].filter((r) => r.what.startsWith(name));
  // Grouped by reply kind, in the order a session meets them.
  return [
    ...byName('calendar BRIEF'),
    ...byName('shop BRIEF'),
    ...byName('shop.search'),
    ...byName('calendar.find'),
    ...byName('shop.order'),
    ...byName('calendar.reschedule'),
    ...byName('CLARIFY'),
    ...byName('RECEIPT'),
    ...byName('auto RECEIPT'),
    ...byName('undo RECEIPT'),
    ...byName('invalid_params'),
    ...byName('consent_required'),
  ];
}

/** o200k of the Lens and of the minified JSON, and the §8 estimate of the Lens. */
export function tokenCost({ what, reply }: ExampleReply): TokenCost {
  const lens = renderLens(reply);
  const { parley: _parley, id: _id, re: _re, ...body } = reply;
  return {
    what,
    lens: countTokens(lens),
    json: countTokens(JSON.stringify(reply)),
    jsonBody: countTokens(JSON.stringify(body)),
    estimate: estimateTokens(lens),
  };
}
