import {
  blockId,
  type Caveat,
  decodeGrant,
  delegateGrant,
  encodeGrant,
  type IntentRequest,
  issueGrant,
  type KeyPair,
  keyPairFromSeed,
  proofTarget,
  publicKeyString,
  type Request,
  signProof,
} from '@parley/protocol';
import type { SeededRandom } from '../fixtures/seeded-random.js';
import { LEDGER_SERVICE_ID } from './ledger-service.js';

/** §6.3 caps of one round: the team's shared block, and each agent's own under it. */
export const TEAM_CAP = 2_400;
export const AGENT_CAP = 1_200;

/** An agent: its key, and the grant of the current round (team block, then its own block). */
export type Agent = {
  name: string;
  key: KeyPair;
  publicKey: string;
  grant: string;
  /** The spend blocks the grant's COMMITs reserve against (§6.3), with their caps. */
  blocks: { id: string; max: number }[];
};

/** Keys from the seed, so a run with the same CAMPAIGN_SEED uses the same keys. */
export async function seededKey(random: SeededRandom): Promise<KeyPair> {
  return keyPairFromSeed(random.bytes(32));
}

/**
 * One round's grants (§6.2): the principal grants a team key TEAM_CAP, and the team delegates
 * AGENT_CAP to each agent, so a COMMIT reserves against both blocks at once and the team cap is
 * shared by every agent. A fresh round gets fresh blocks (caps are never reduced on UNDO, §6.3).
 */
export async function grantRound(
  principal: KeyPair,
  team: KeyPair,
  keys: readonly KeyPair[],
  round: number,
): Promise<Agent[]> {
  const scope: Caveat[] = [{ svc: [LEDGER_SERVICE_ID] }, { can: ['ledger.*'] }];
  const root = await issueGrant(principal, {
    sub: publicKeyString(team),
    caveats: [...scope, { spend: { max: TEAM_CAP, currency: 'USD' } }],
    nonce: `campaign-round-${round}`,
  });
  return Promise.all(
    keys.map(async (key, i) => {
      const grant = await delegateGrant(root, team, {
        sub: publicKeyString(key),
        caveats: [{ spend: { max: AGENT_CAP, currency: 'USD' } }],
      });
      const [teamBlock, ownBlock] = decodeGrant(encodeGrant(grant));
      if (teamBlock === undefined || ownBlock === undefined) throw new Error('grant lost a block');
      return {
        name: `agent-${i}`,
        key,
        publicKey: publicKeyString(key),
        grant: encodeGrant(grant),
        blocks: [
          { id: blockId(teamBlock), max: TEAM_CAP },
          { id: blockId(ownBlock), max: AGENT_CAP },
        ],
      };
    }),
  );
}

/** What a request carries besides the envelope, grants and proof. */
export type RequestBody =
  | Omit<IntentRequest, 'parley' | 'id' | 'grants' | 'proof'>
  | { verb: 'COMMIT'; proposal: string; hash: string }
  | { verb: 'UNDO'; receipt: string };

/** A frame of `agent` with its grant and a fresh proof (§6.5), under the given frame id. */
export async function signedFrame(agent: Agent, id: string, body: RequestBody): Promise<Request> {
  const frame = { parley: 1, id, grants: [agent.grant], ...body } as Request;
  frame.proof = await signProof(agent.key, {
    aud: LEDGER_SERVICE_ID,
    verb: frame.verb,
    target: proofTarget(frame),
    ts: Math.floor(Date.now() / 1000),
  });
  return frame;
}
