import { ConsentMismatchError, type ProposalMemory } from '@parley/client';
import type { Proposal } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import type { PendingConsent } from '../home/consent-file.js';
import { hashCovers } from '../home/proposal-file.js';

/**
 * §6.6: the proposal a consent request is about, or CliError saying why it must not be shown for
 * signing: the request names another service than the one the agent talked to, or its proposal
 * id, hash, service or capability do not match a proposal in `received` (what the agent got from
 * that service), or that proposal's hash does not cover what will be shown (§5.1), or it has
 * expired.
 */
export function consentProposal(
  received: ProposalMemory,
  pending: PendingConsent,
  now: number,
): Proposal {
  const { consent } = pending;
  if (consent.service !== pending.service) {
    throw refusal(
      pending,
      `it names service ${consent.service}, but the agent was talking to ${pending.service}`,
    );
  }
  let proposal: Proposal;
  try {
    proposal = received.checkConsent(consent);
  } catch (error) {
    if (error instanceof ConsentMismatchError) {
      throw refusal(pending, `${error.mismatch} mismatch: ${error.message}`);
    }
    throw error;
  }
  if (!hashCovers(proposal) || proposal.hash !== consent.hash) {
    throw refusal(pending, 'the hash does not cover the proposal the agent received (§5.1)');
  }
  if (consent.expires <= now || proposal.expires <= now) {
    throw refusal(pending, 'the proposal has expired; the agent must run the intent again');
  }
  return proposal;
}

/**
 * §6.6, docs/extensions.md §E4: CliError unless `key` may approve the request: its principal, or
 * with approvals any listed key, each with a consent grant of its own.
 */
export function checkApprover(pending: PendingConsent, key: string): void {
  const { consent } = pending;
  if (consent.principal !== key && consent.approvals?.of.includes(key) !== true) {
    throw refusal(
      pending,
      `it asks principal ${consent.principal}, and your principal key is ${key}`,
    );
  }
}

function refusal(pending: PendingConsent, why: string): CliError {
  return new CliError(
    `refusing consent request for ${pending.consent.proposal}: ${why}; nothing was signed`,
  );
}
