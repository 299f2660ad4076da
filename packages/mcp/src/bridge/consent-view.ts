import { type Proposal, renderLens, renderTime } from '@parley/protocol';
import type { ConsentRequest } from './consent-inbox.js';

/** Whether `code` is a C0 or C1 control character other than the newline. */
export function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}

/** Service-written text with control characters as spaces (it is shown to a person). */
function plain(text: string): string {
  let out = '';
  for (const char of text) out += isControl(char.codePointAt(0) ?? 0) ? ' ' : char;
  return out;
}

/** The proposal without `data`, which the hash does not cover (§5.1) and so is not approved. */
function hashedPart(proposal: Proposal): Proposal {
  const { data: _data, ...hashed } = proposal;
  return hashed;
}

/**
 * §6.6: what the person is asked to approve. Everything bound by the hash comes from the proposal
 * as the bridge received it (its Lens: summary, effects, cost, risk, undo, expiry); the service's
 * own words follow, labelled as such; then exactly what approving signs.
 */
export function renderConsentView(request: ConsentRequest): string {
  const { consent, proposal } = request;
  const lines = [
    `Your agent asks you to approve a commit at ${request.service} (${request.url}).`,
    '',
    plain(renderLens({ kind: 'PROPOSALS', proposals: [hashedPart(proposal)] })),
    '',
    `The service says: ${plain(request.message)}`,
  ];
  if (consent.summary !== proposal.summary) {
    lines.push(
      `Its consent summary reads: ${plain(consent.summary)} (the lines above are what you sign)`,
    );
  }
  lines.push(
    '',
    `Approving signs, with your principal key, a one-shot consent for agent ${request.agent}: only a COMMIT of exactly this proposal at ${consent.service}, until ${renderTime(consent.expires)}.`,
  );
  return lines.join('\n');
}
