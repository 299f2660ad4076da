import type { ConsentRequest as CheckedConsent } from '@parley/protocol';

/**
 * §6.6: a consent request the bridge checked against the proposal it showed the model: the URL
 * it committed to, the service id its connection learnt from HELLO, the proposal as it received
 * and showed it (its hash equals consent.hash), the agent key the grant must name, and the
 * service's ERROR message.
 */
export type ConsentRequest = CheckedConsent & { message: string };

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
