/**
 * The service side of the PostgreSQL benchmark: a one-capability service whose COMMIT does exactly
 * the store's work (a transactional apply that writes nothing of its own), its agents, and
 * COMMIT frames prepared before the clock starts: each for a proposal of its own, made by an
 * INTENT through the same dispatcher, and signed.
 */
import {
  encodeGrant,
  type FinalReply,
  issueGrant,
  type KeyPair,
  keyPairFromSeed,
  proofTarget,
  publicKeyString,
  type Request,
  signProof,
} from '@parley/protocol';
import { defineService, type Service, type Store } from '@parley/service';

export const BENCH_SERVICE = 'bench.example';
export const PRICE = 1598;
/** A cap so large it never binds: every COMMIT still reserves against it (§6.3). */
const SPEND_MAX = 1_000_000_000_000;

/** Proposals per INTENT, so preparing a round takes fewer INTENTs (they are not timed). */
const PER_INTENT = 16;

/** The bench service on `store`, on a pinned clock. */
export function benchService(store: Store, principal: KeyPair, now: number): Service {
  const service = defineService({
    id: BENCH_SERVICE,
    name: 'Bench',
    trust: [publicKeyString(principal)],
    store,
    clock: () => now,
    log: (message, error) => console.error(message, error),
  });
  service.intent('bench.pay', {
    params: { amount: 'int' },
    transactional: true,
    plan: (params) =>
      Array.from({ length: PER_INTENT }, (_, n) => ({
        summary: `Pay ${String(params.amount)}`,
        effects: [{ op: 'charge' as const, target: 'card ••4242' }],
        cost: { amount: params.amount as number, currency: 'USD' },
        action: { amount: params.amount as number, n },
      })),
    apply: (action) => ({ paid: action }),
  });
  return service;
}

/** An agent: its key, one root grant with a spend cap, and the frames it signs. */
export class PayingAgent {
  #frames = 0;

  private constructor(
    readonly key: KeyPair,
    readonly grant: string,
    readonly now: number,
  ) {}

  static async create(principal: KeyPair, seed: number, now: number): Promise<PayingAgent> {
    const key = await keyPairFromSeed(new Uint8Array(32).fill(seed));
    const grant = await issueGrant(principal, {
      sub: publicKeyString(key),
      caveats: [
        { svc: [BENCH_SERVICE] },
        { can: ['bench.*'] },
        { spend: { max: SPEND_MAX, currency: 'USD' } },
      ],
      iat: now,
    });
    return new PayingAgent(key, encodeGrant(grant), now);
  }

  async signed(body: Record<string, unknown>): Promise<Request> {
    const request = {
      parley: 1,
      id: `b${publicKeyString(this.key).slice(8, 14)}${++this.#frames}`,
      grants: [this.grant],
      ...body,
    } as unknown as Request;
    request.proof = await signProof(this.key, {
      aud: BENCH_SERVICE,
      verb: request.verb,
      target: proofTarget(request),
      ts: this.now,
    });
    return request;
  }

  /** `count` COMMIT frames through `service`, each for a proposal this agent's INTENT made. */
  async commitFrames(service: Service, count: number): Promise<Request[]> {
    const intent = await this.signed({
      verb: 'INTENT',
      capability: 'bench.pay',
      params: { amount: PRICE },
    });
    const frames: Request[] = [];
    for (let i = 0; frames.length < count; i++) {
      const reply = expectKind(
        await service.handle({ ...intent, id: `${intent.id}.${i}`, budget: 100_000 }),
        'PROPOSALS',
      );
      for (const p of reply.kind === 'PROPOSALS' ? reply.proposals : []) {
        if (frames.length < count) {
          frames.push(await this.signed({ verb: 'COMMIT', proposal: p.id, hash: p.hash }));
        }
      }
    }
    return frames;
  }
}

export function expectKind(reply: FinalReply, kind: FinalReply['kind']): FinalReply {
  if (reply.kind !== kind) {
    throw new Error(`expected ${kind}, got ${JSON.stringify(reply).slice(0, 300)}`);
  }
  return reply;
}
