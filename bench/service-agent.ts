/**
 * A bench agent for the @parley/service benchmark: an Ed25519 key, one root grant from the
 * principal, and request frames for one service, signed as §6.5 asks.
 */
import {
  type Caveat,
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

/** A request's verb-specific fields; the agent adds `parley` and `id`. */
export type FrameBody = { verb: Verb; [field: string]: unknown };

/** Deterministic test keys: the same seed gives the same key on every machine. */
export const keyFromSeed = (n: number): Promise<KeyPair> =>
  keyPairFromSeed(new Uint8Array(32).fill(n));

export class BenchAgent {
  #frames = 0;

  private constructor(
    readonly key: KeyPair,
    readonly grants: string[],
    readonly aud: string,
    /** The proof ts: the services under bench run on a pinned clock. */
    readonly ts: number,
  ) {}

  /** An agent holding a root grant from `principal` with these caveats. */
  static async create(
    principal: KeyPair,
    seed: number,
    aud: string,
    caveats: Caveat[],
    ts: number,
  ): Promise<BenchAgent> {
    const key = await keyFromSeed(seed);
    const grant = await issueGrant(principal, { sub: publicKeyString(key), caveats, iat: ts });
    return new BenchAgent(key, [encodeGrant(grant)], aud, ts);
  }

  /** An unsigned request frame with a fresh id. */
  frame(body: FrameBody): Request {
    return { parley: 1, id: `b${++this.#frames}`, ...body } as unknown as Request;
  }

  /** A request frame with this agent's grants and a proof of possession (§6.5). */
  async signed(body: FrameBody): Promise<Request> {
    const request = this.frame(body);
    request.grants = this.grants;
    request.proof = await signProof(this.key, {
      aud: this.aud,
      verb: request.verb,
      target: proofTarget(request),
      ts: this.ts,
    });
    return request;
  }

  /**
   * The same signed frame under a fresh id. Only for verbs whose proof target is not the frame id
   * (ASK, INTENT without auto: §6.5), so one proof serves every copy.
   */
  again(request: Request): Request {
    return { ...request, id: `b${++this.#frames}` };
  }
}

/** The reply, if it is of `kind`; else an error naming what came instead. */
export function expectKind(reply: FinalReply, kind: FinalReply['kind']): FinalReply {
  if (reply.kind !== kind) {
    throw new Error(`expected ${kind}, got ${JSON.stringify(reply).slice(0, 300)}`);
  }
  return reply;
}
