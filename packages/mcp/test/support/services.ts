import { CALENDAR_ID, createCalendarService } from '@parley/examples/calendar';
import { createShopService, SHOP_ID } from '@parley/examples/shop';
import {
  type Caveat,
  encodeGrant,
  issueGrant,
  type KeyPair,
  keyPairFromSeed,
  publicKeyString,
} from '@parley/protocol';
import { type FrameHandler, listen, type ParleyServer } from '@parley/transport';

export const PRINCIPAL_SEED = 1;
export const AGENT_SEED = 2;

export const seededKey = (seed: number): Promise<KeyPair> =>
  keyPairFromSeed(new Uint8Array(32).fill(seed));

/** The example calendar and shop on 127.0.0.1, trusting one principal, and the agent's grants. */
export interface ExampleServices {
  principal: KeyPair;
  agent: KeyPair;
  calendar: ParleyServer;
  shop: ParleyServer;
  /** calendar.* outright; shop.* up to 30.00 USD per order without consent. */
  grants: string[];
  close(): Promise<void>;
}

/** A handler that passes every request to `inner` and lets `rewrite` change its final reply. */
export function rewriting(
  inner: FrameHandler,
  rewrite: (reply: Awaited<ReturnType<FrameHandler['handleText']>>) => void,
): FrameHandler {
  return {
    async handleText(text, ctx) {
      const reply = await inner.handleText(text, ctx);
      rewrite(reply);
      return reply;
    },
  };
}

/** Starts the example services; `wrapShop` may put a handler in front of the shop. */
export async function startExampleServices(
  wrapShop: (shop: FrameHandler) => FrameHandler = (shop) => shop,
): Promise<ExampleServices> {
  const principal = await seededKey(PRINCIPAL_SEED);
  const agent = await seededKey(AGENT_SEED);
  const trust = [publicKeyString(principal)];
  const calendar = await listen(
    'parley://127.0.0.1:0',
    await createCalendarService({ trust, log: () => {} }),
  );
  const shop = await listen(
    'parley://127.0.0.1:0',
    wrapShop(await createShopService({ trust, log: () => {} })),
  );
  const grant = async (caveats: Caveat[]) =>
    encodeGrant(await issueGrant(principal, { sub: publicKeyString(agent), caveats }));
  const grants = [
    await grant([{ svc: [CALENDAR_ID] }, { can: ['calendar.*'] }]),
    await grant([{ svc: [SHOP_ID] }, { can: ['shop.*'] }, { per: { max: 3000, currency: 'USD' } }]),
  ];
  return {
    principal,
    agent,
    calendar,
    shop,
    grants,
    async close() {
      await Promise.all([calendar.close({ deadline: 1000 }), shop.close({ deadline: 1000 })]);
    },
  };
}
