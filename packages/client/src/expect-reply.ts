import {
  type FinalReply,
  hashProposal,
  ParleyError,
  type Proposal,
  type Verb,
} from '@parley/protocol';
import { ClientError } from './client-error.js';

type Kind = Exclude<FinalReply['kind'], 'ERROR'>;

/**
 * The reply if its kind is one `verb` allows. ERROR rejects with its ParleyError (§7); any other
 * kind with ClientError `unexpected_reply`.
 */
export function expectReply<K extends Kind>(
  reply: FinalReply,
  verb: Verb,
  kinds: readonly K[],
): Extract<FinalReply, { kind: K }> {
  if (reply.kind === 'ERROR') throw ParleyError.fromBody(reply);
  if (!(kinds as readonly string[]).includes(reply.kind)) {
    throw new ClientError(
      'unexpected_reply',
      `${verb} was answered with ${reply.kind}; expected ${kinds.join(' or ')}`,
    );
  }
  return reply as Extract<FinalReply, { kind: K }>;
}

/**
 * §5.1: throws ClientError `unexpected_reply` unless every proposal carries the hash of its
 * contents.
 */
export function checkProposalHashes(proposals: readonly Proposal[]): void {
  for (const proposal of proposals) {
    let hash: string | undefined;
    try {
      hash = hashProposal(proposal);
    } catch {
      hash = undefined;
    }
    if (hash !== proposal.hash) {
      throw new ClientError(
        'unexpected_reply',
        `proposal ${String(proposal.id)} does not carry the hash of its contents (§5.1)`,
      );
    }
  }
}
