import { randomBytes } from 'node:crypto';
import {
  type Caveat,
  encodeGrant,
  grantId,
  issueGrant,
  keyPairFromSeed,
  proofTarget,
  publicKeyString,
  type Request,
  signProof,
} from '@parley/protocol';

/** The service the fixture runs (fixtures/acme-instance.ts) and the principal it trusts. */
export const SERVICE_ID = 'acme.example';
const principal = await keyPairFromSeed(new Uint8Array(32).fill(1));
/** The principal whose grants the agent holds: a service under test trusts it. */
export const PRINCIPAL = publicKeyString(principal);
/** One agent key for everything: only the INTENT's holder may commit its proposals (§4.4). */
const agent = await keyPairFromSeed(new Uint8Array(32).fill(2));

const now = (): number => Math.floor(Date.now() / 1000);

/** A grant from the principal to the agent for this service, with extra caveats; and its id. */
export async function grantFor(extra: Caveat[] = []): Promise<{ token: string; id: string }> {
  const grant = await issueGrant(principal, {
    sub: publicKeyString(agent),
    caveats: [{ svc: [SERVICE_ID] }, { can: ['acme.*'] }, ...extra],
  });
  return { token: encodeGrant(grant), id: grantId(grant) };
}

/**
 * A request frame with a fresh random id, the grant (and any more, such as consent grants), and
 * the agent's proof (§6.5).
 */
export async function signedFrame(
  body: Record<string, unknown>,
  grant: string,
  more: readonly string[] = [],
): Promise<Request> {
  const frame = {
    parley: 1,
    id: `t${randomBytes(8).toString('hex')}`,
    grants: [grant, ...more],
    ...body,
  } as unknown as Request;
  frame.proof = await signProof(agent, {
    aud: SERVICE_ID,
    verb: frame.verb,
    target: proofTarget(frame),
    ts: now(),
  });
  return frame;
}
