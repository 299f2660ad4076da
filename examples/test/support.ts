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
} from '@parley/protocol';
import type { Service } from '@parley/service';

/** A tiny agent for story tests: a key, its grants, and signed requests to one service. */
export async function agentFor(
  service: Service,
  principal: KeyPair,
  seed: number,
  caveats: Caveat[],
  clock: () => number,
) {
  const key = await keyPairFromSeed(new Uint8Array(32).fill(seed));
  let grants = [
    encodeGrant(await issueGrant(principal, { sub: publicKeyString(key), caveats, iat: clock() })),
  ];
  let n = 0;
  async function send(
    body: Record<string, unknown>,
    options: { signed?: boolean } = {},
  ): Promise<FinalReply> {
    const req = { parley: 1, id: `a${++n}`, ...body } as unknown as Request;
    if (options.signed !== false && req.verb !== 'HELLO') {
      req.grants = grants;
      req.proof = await signProof(key, {
        aud: service.info.id,
        verb: req.verb,
        target: proofTarget(req),
        ts: clock(),
      });
    }
    return service.handle(req);
  }
  return {
    key,
    send,
    addGrant(token: string) {
      grants = [...grants, token];
    },
  };
}

export const principalKey = (): Promise<KeyPair> => keyPairFromSeed(new Uint8Array(32).fill(1));
