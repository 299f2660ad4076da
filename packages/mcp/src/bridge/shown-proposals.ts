import type { Proposal } from '@parley/protocol';
import type { ServiceLink } from './service-link.js';

/** A proposal the bridge showed the model, and the service it came from. */
export interface ShownProposal {
  link: ServiceLink;
  /** As received; its hash was checked to cover its contents (§5.1) before it was shown. */
  proposal: Proposal;
}

/** Proposals expired this long ago are forgotten as new ones arrive (s). */
const EXPIRED_KEPT_SECONDS = 3_600;

/**
 * §4.4: every proposal the bridge showed the model, by id. A commit names one of these; the
 * bridge sends the hash it holds, never one the model supplies.
 */
export class ShownProposals {
  readonly #byId = new Map<string, ShownProposal>();
  readonly #now: () => number;

  /** `now` gives unix milliseconds. */
  constructor(now: () => number) {
    this.#now = now;
  }

  remember(link: ServiceLink, proposals: readonly Proposal[]): void {
    const horizon = this.#now() / 1000 - EXPIRED_KEPT_SECONDS;
    for (const [id, shown] of this.#byId) {
      if (shown.proposal.expires < horizon) this.#byId.delete(id);
    }
    for (const proposal of proposals) this.#byId.set(proposal.id, { link, proposal });
  }

  get(id: string): ShownProposal | undefined {
    return this.#byId.get(id);
  }

  /** Whether the proposal's expiry (§5.1) has passed. */
  expired(shown: ShownProposal): boolean {
    return shown.proposal.expires <= this.#now() / 1000;
  }
}
