import {
  type ErrorReply,
  type FinalReply,
  type JsonObject,
  MAX_NESTING_DEPTH,
  mergePatch,
} from '@parley/protocol';
import { MAX_QUOTED_LENGTH, MemoryStore, type Service } from '@parley/service';
import { describe, expect, it } from 'vitest';
import { createCalendarService } from '../src/calendar/index.js';
import { createShopService } from '../src/shop/index.js';

const NOW = Date.UTC(2026, 8, 21, 12, 0, 0) / 1000;
const clock = () => NOW;
const internals: unknown[] = [];
const log = (_message: string, error: unknown) => internals.push(error);

const calendar = await createCalendarService({ trust: [], clock, store: new MemoryStore(), log });
const shop = await createShopService({ trust: [], clock, store: new MemoryStore(), log });

let n = 0;
/** A frame as a peer sends it: text, parsed by the service. */
function send(service: Service, frame: Record<string, unknown>): Promise<FinalReply> {
  return service.handleText(JSON.stringify({ parley: 1, id: `h${++n}`, ...frame }));
}

const TO = '2026-09-24T15:00:00Z';

/** `depth` arrays nested inside each other. */
function nested(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

describe('§7 hostile params get a typed error, never internal (examples)', () => {
  it('a 1,000,000-character event is invalid_params quoting a few dozen characters', async () => {
    const event = 'x'.repeat(1_000_000);
    const reply = (await send(calendar, {
      verb: 'INTENT',
      capability: 'calendar.reschedule',
      params: { event, to: TO },
    })) as ErrorReply;
    expect(reply).toMatchObject({ kind: 'ERROR', code: 'invalid_params' });
    expect(JSON.stringify(reply).length).toBeLessThan(400);
    expect(reply.message).toContain(`"${'x'.repeat(MAX_QUOTED_LENGTH - 2)}`);
  });

  it('a 1,000,000-character sku or capability name is answered with a short message', async () => {
    const long = 'x'.repeat(1_000_000);
    const order = (await send(shop, {
      verb: 'INTENT',
      capability: 'shop.order',
      params: { items: [{ sku: long, qty: 1 }] },
    })) as ErrorReply;
    expect(order).toMatchObject({ code: 'invalid_params' });
    expect(JSON.stringify(order).length).toBeLessThan(400);
    const unknown = (await send(shop, { verb: 'ASK', capability: long })) as ErrorReply;
    expect(unknown).toMatchObject({ code: 'unknown_capability' });
    expect(JSON.stringify(unknown).length).toBeLessThan(400);
  });

  it('a search of 200,000 repeated words answers like a search of one', async () => {
    const query = 'cable '.repeat(200_000);
    const many = await send(shop, { verb: 'ASK', capability: 'shop.search', params: { query } });
    const one = await send(shop, {
      verb: 'ASK',
      capability: 'shop.search',
      params: { query: 'cable' },
    });
    expect(many.kind).toBe('ANSWER');
    expect({ ...many, id: '' }).toEqual({ ...one, id: '', re: many.re });
  });

  const PROTOTYPE_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];

  it.each(PROTOTYPE_NAMES)(
    'a param named %s is invalid_params with a fix that works',
    async (name) => {
      for (const [service, capability, verb, base] of [
        [calendar, 'calendar.find', 'ASK', {}],
        [calendar, 'calendar.reschedule', 'INTENT', { event: 'e1', to: TO }],
        [shop, 'shop.search', 'ASK', {}],
        [shop, 'shop.order', 'INTENT', { items: [{ sku: 'des-22a', qty: 1 }] }],
      ] as const) {
        const rest = JSON.stringify(base).slice(1, -1);
        const params = JSON.parse(`{"${name}":1${rest === '' ? '' : `,${rest}`}}`) as JsonObject;
        const reply = (await service.handleText(
          JSON.stringify({ parley: 1, id: 'p', verb, capability, params }),
        )) as ErrorReply;
        expect(reply).toMatchObject({ kind: 'ERROR', code: 'invalid_params' });
        const fixed = mergePatch(params, reply.fix?.[0]?.params) as JsonObject;
        const again = await send(service, { verb, capability, params: fixed });
        expect(again.kind).not.toBe('ERROR');
      }
    },
  );

  it(`params nested 10,000 deep (the limit is ${MAX_NESTING_DEPTH}) are invalid_params on ASK and INTENT`, async () => {
    const deep = nested(10_000);
    for (const [service, frame] of [
      [calendar, `{"verb":"ASK","capability":"calendar.find","params":{"query":${deep}}}`],
      [
        calendar,
        `{"verb":"INTENT","capability":"calendar.reschedule","params":{"event":"e1","to":${deep}}}`,
      ],
      [shop, `{"verb":"INTENT","capability":"shop.order","params":{"items":${deep}}}`],
    ] as const) {
      const reply = (await service.handleText(
        `{"parley":1,"id":"d",${frame.slice(1)}`,
      )) as ErrorReply;
      expect(reply).toMatchObject({ kind: 'ERROR', code: 'invalid_params' });
      expect(reply.message).toContain(String(MAX_NESTING_DEPTH));
    }
  });

  it('nothing above reached the internal error log', () => {
    expect(internals).toEqual([]);
  });
});
