import {
  type Caveat,
  encodeGrant,
  type FinalReply,
  issueGrant,
  keyPairFromSeed,
  parseFrame,
  publicKeyString,
} from '@parley/protocol';
import { defineService, type Service } from '@parley/service';
import { type FrameHandler, listen, type ParleyServer } from '@parley/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, connect, type ParleyClient, Wallet } from '../src/index.js';

const SERVICE = 'signing.example';
const seed = (n: number) => new Uint8Array(32).fill(n);
const principal = await keyPairFromSeed(seed(1));
const agentKey = await keyPairFromSeed(seed(2));
const serviceKey = await keyPairFromSeed(seed(9));
const forger = await keyPairFromSeed(seed(7));

function signingService(): Service {
  const service = defineService({
    id: SERVICE,
    name: 'Signing shop',
    trust: [publicKeyString(principal)],
    receiptKey: serviceKey,
    log: () => {},
  });
  service.intent('shop.buy', {
    params: { amount: 'int' },
    plan: (params) => [
      {
        summary: `Buy for ${String(params.amount)}`,
        effects: [{ op: 'charge', target: 'card' }],
        cost: { amount: params.amount as number, currency: 'USD' },
        undoWindow: 600,
        action: { amount: params.amount as number },
      },
    ],
    apply: async () => ({ ok: true }),
    revert: async () => ({}),
  });
  return service;
}

/**
 * A relay that changes RECEIPT replies on the way, as an on-path attacker or a lying host would.
 */
function tampering(
  service: Service,
  change: (reply: Record<string, unknown>) => void,
): FrameHandler {
  return {
    async handleText(text, ctx) {
      const reply = (await service.handleText(text, ctx)) as unknown as Record<string, unknown>;
      if (reply.kind === 'RECEIPT') change(reply);
      return reply as unknown as FinalReply;
    },
  };
}

const servers: ParleyServer[] = [];
const clients: ParleyClient[] = [];
let service: Service;

beforeAll(() => {
  service = signingService();
});
afterAll(async () => {
  for (const c of clients) await c.close();
  for (const s of servers) await s.close();
  await service.close();
});

async function agentOn(handler: FrameHandler): Promise<ParleyClient> {
  const server = await listen('parley://127.0.0.1:0', handler);
  servers.push(server);
  const caveats: Caveat[] = [{ svc: [SERVICE] }];
  const token = encodeGrant(
    await issueGrant(principal, { sub: publicKeyString(agentKey), caveats }),
  );
  const client = await connect(server.address, {
    wallet: new Wallet(agentKey, { grants: [token] }),
  });
  clients.push(client);
  return client;
}

async function buy(client: ParleyClient) {
  const reply = await client.intent('shop.buy', { amount: 300 });
  if (reply.kind !== 'PROPOSALS') throw new Error('expected proposals');
  const proposal = reply.proposals[0];
  if (proposal === undefined) throw new Error('no proposal');
  return client.commit(proposal);
}

async function refusal(work: Promise<unknown>): Promise<ClientError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ClientError))
    throw new Error(`expected a ClientError, got ${String(error)}`);
  return error;
}

describe('docs/extensions.md §E1: the client checks receipts when the BRIEF announced a key', () => {
  it('learns the key from the BRIEF and accepts a correctly signed receipt and reversal', async () => {
    const client = await agentOn(service);
    const receipt = await buy(client);
    expect(client.receiptKey).toBe(publicKeyString(serviceKey));
    expect(receipt.signed?.by).toBe(SERVICE);
    const reversal = await client.undo(receipt.receipt);
    expect(reversal.receipt.undoes).toBe(receipt.receipt.id);
  });

  it('a receipt whose signed fields were changed is refused as bad_receipt_signature, never as done', async () => {
    const client = await agentOn(
      tampering(service, (reply) => {
        (reply.receipt as { summary: string }).summary = 'Buy for 3 cents';
      }),
    );
    const error = await refusal(buy(client));
    expect(error.reason).toBe('bad_receipt_signature');
    expect(error.message).toMatch(/does not match its contents/);
  });

  it('a receipt with its signature stripped is refused', async () => {
    const client = await agentOn(
      tampering(service, (reply) => {
        delete reply.signed;
      }),
    );
    expect((await refusal(buy(client))).reason).toBe('bad_receipt_signature');
  });

  it('a receipt re-signed by another key is refused', async () => {
    const client = await agentOn(
      tampering(service, (reply) => {
        const signed = reply.signed as { key: string };
        signed.key = publicKeyString(forger);
      }),
    );
    expect((await refusal(buy(client))).message).toMatch(/another key than the service announced/);
  });

  it('the signature crosses the wire as a plain field a v1 parser keeps and ignores (§2.1)', async () => {
    const client = await agentOn(service);
    const receipt = await buy(client);
    const parsed = parseFrame(JSON.stringify(receipt)) as unknown as Record<string, unknown>;
    expect(parsed.signed).toEqual(receipt.signed);
  });
});
