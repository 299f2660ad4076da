import type { Consent, Proposal } from '@parley/protocol';
import { ConsentMismatchError } from './client-error.js';

/** Expired proposals are kept this long, so a late consent request gets a precise answer (s). */
const EXPIRED_KEPT_SECONDS = 3_600;

/**
 * §6.6: every proposal an agent received, per service, so a consent request can be checked
 * against what the service actually proposed. Proposals expired for an hour are forgotten as new
 * ones arrive.
 * One memory may be shared by several clients of one agent.
 */
export class ProposalMemory {
  readonly #byService = new Map<string, Map<string, Proposal>>();
  readonly #now: () => number;

  /** `now` gives unix milliseconds (Date.now by default). */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Records proposals received from `service`. */
  remember(service: string, proposals: readonly Proposal[]): void {
    let known = this.#byService.get(service);
    if (known === undefined) {
      known = new Map();
      this.#byService.set(service, known);
    }
    this.#forgetExpired(known);
    for (const proposal of proposals) known.set(proposal.id, proposal);
  }

  /** The proposal `id` received from `service`, if any. */
  get(service: string, id: string): Proposal | undefined {
    return this.#byService.get(service)?.get(id);
  }

  /**
   * §6.6: the proposal a consent request is about. Throws ConsentMismatchError unless its
   * proposal id, hash, service and capability match a proposal received from that service.
   */
  checkConsent(consent: Consent): Proposal {
    const proposal = this.get(consent.service, consent.proposal);
    if (proposal === undefined) {
      for (const [service, known] of this.#byService) {
        if (known.has(consent.proposal)) {
          throw new ConsentMismatchError(
            'service',
            `consent names service "${consent.service}", but proposal ${consent.proposal} came from "${service}"`,
          );
        }
      }
      throw new ConsentMismatchError(
        'proposal',
        `no proposal ${consent.proposal} was received from "${consent.service}"`,
      );
    }
    if (proposal.hash !== consent.hash) {
      throw new ConsentMismatchError(
        'hash',
        `the consent hash differs from the hash of proposal ${proposal.id} as it was received`,
      );
    }
    if (proposal.capability !== consent.capability) {
      throw new ConsentMismatchError(
        'capability',
        `consent names capability "${consent.capability}", but proposal ${proposal.id} is for "${proposal.capability}"`,
      );
    }
    return proposal;
  }

  #forgetExpired(known: Map<string, Proposal>): void {
    const horizon = this.#now() / 1000 - EXPIRED_KEPT_SECONDS;
    for (const [id, proposal] of known) {
      if (proposal.expires < horizon) known.delete(id);
    }
  }
}
