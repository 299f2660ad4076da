import { ConsentMismatchError } from '@parley/client';
import type { Proposal } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import type { PendingConsent } from '../home/consent-file.js';
import { hashCovers, proposalMemory } from '../home/proposal-file.js';

/**
 * §6.6: the proposal a saved consent request is about, or CliError saying why it must not be
 * shown for signing: the request names another service than the one the agent talked to, or its
 * proposal id, hash, service or capability do not match a proposal the agent received from that
 * service, or that proposal's hash does not cover what will be shown (§5.1), or it has expired.
 */
export function checkPendingConsent(
  home: string,
  pending: PendingConsent,
  principal: string,
  now: number,
): Proposal {
  const { consent } = pending;
  const refuse = (why: string): CliError =>
    new CliError(`refusing consent request for ${consent.proposal}: ${why}; nothing was signed`);
  if (consent.service !== pending.service) {
    throw refuse(
      `it names service ${consent.service}, but the agent was talking to ${pending.service}`,
    );
  }
  let proposal: Proposal;
  try {
    proposal = proposalMemory(home, pending.service).checkConsent(consent);
  } catch (error) {
    if (error instanceof ConsentMismatchError)
      throw refuse(`${error.mismatch} mismatch: ${error.message}`);
    throw error;
  }
  if (!hashCovers(proposal) || proposal.hash !== consent.hash) {
    throw refuse('the hash does not cover the proposal the agent received (§5.1)');
  }
  // docs/extensions.md §E4: with approvals, any listed key may approve, each with its own grant.
  if (consent.principal !== principal && consent.approvals?.of.includes(principal) !== true) {
    throw refuse(`it asks principal ${consent.principal}, and your principal key is ${principal}`);
  }
  if (consent.expires <= now || proposal.expires <= now) {
    throw refuse('the proposal has expired; the agent must run the intent again');
  }
  return proposal;
}
