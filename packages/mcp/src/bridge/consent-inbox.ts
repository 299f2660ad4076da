import type { Consent, Proposal } from '@parley/protocol';

/** §6.6: a consent request the bridge checked against the proposal it showed the model. */
export interface ConsentRequest {
  /** The URL the bridge committed to. */
  url: string;
  /** The service id the bridge's connection learnt from HELLO (not from the consent itself). */
  service: string;
  consent: Consent;
  /** The proposal as the bridge received and showed it; its hash equals consent.hash. */
  proposal: Proposal;
  /** The agent key the consent grant must name (`sub`). */
  agent: string;
  /** The service's ERROR message that asked for consent: its words, to be shown as such. */
  message: string;
}

/**
 * Where consent requests wait for the person when the bridge cannot ask them itself (no
 * elicitation at the host, or no principal key given). The `parley` CLI keeps them in
 * PARLEY_HOME for `parley approve`.
 */
export interface ConsentInbox {
  /**
   * Keeps `request` for out-of-band approval and returns what the model should tell its user,
   * for example "Ask your user to run `parley approve p_7Hc2`, then call parley_commit again."
   */
  record(request: ConsentRequest): string | Promise<string>;
}

/** What the bridge says when no inbox was configured. */
export const DEFAULT_CONSENT_INBOX: ConsentInbox = {
  record: (request) =>
    `Your user must approve this commit with their principal key: ask them to run ` +
    `\`parley approve ${request.proposal.id}\`, then call parley_commit with proposal ` +
    `${request.proposal.id} again.`,
};
