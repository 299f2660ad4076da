import { consentLines, renderConsent } from '@parley/protocol';
import type { ConsentRequest } from './consent-inbox.js';

/**
 * §6.6: what the person at the MCP host is asked to approve: the one consent rendering of
 * @parley/protocol (the proposal as the bridge received it, every service string escaped, the
 * service's words labelled as such, then exactly what approving signs), as the elicitation's
 * text. `now` is unix seconds.
 */
export function renderConsentView(request: ConsentRequest, now: number): string {
  return consentLines(renderConsent(request, now)).join('\n');
}
