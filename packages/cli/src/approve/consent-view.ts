import {
  type Consent,
  type Proposal,
  renderDuration,
  renderEffect,
  renderMoney,
  renderTime,
} from '@parley/protocol';
import { roughDuration } from '../rough-duration.js';
import { terminalText } from '../terminal-text.js';

/** What the person is asked about, and by whom. */
export type ConsentView = {
  consent: Consent;
  /** The proposal as the agent received it; its hash was recomputed and equals consent.hash. */
  proposal: Proposal;
  /** The service the agent was connected to, and the URL. */
  service: string;
  url: string;
  agent: string;
  /** The ERROR message that asked for consent, if any: the service's words. */
  message?: string;
};

/**
 * §6.6: the approval screen. Everything bound by the hash comes from the proposal itself:
 * summary, effects, cost, risk, undo and expiry (§5.1). The service's own consent summary and
 * message are shown after it, labelled as the service's words. `data` is not shown: the hash
 * does not cover it (§5.1). Service-written text is stripped of control characters.
 */
export function renderConsentView(view: ConsentView, now: number): string {
  const { proposal, consent } = view;
  const undo =
    proposal.undo === null
      ? 'cannot be undone'
      : `can be undone for ${renderDuration(proposal.undo.window)} after it is done`;
  const lines = [
    '',
    `Your agent asks you to approve a commit at ${view.service} (${view.url}).`,
    '',
    `  ${proposal.summary}`,
    `  proposal ${proposal.id} · ${proposal.capability}`,
    '',
    '  What it will do:',
    ...(proposal.effects.length === 0
      ? ['    (no effects declared)']
      : proposal.effects.map((effect) => `    ${renderEffect(effect)}`)),
    '',
    `  Cost:     ${proposal.cost === null ? 'free' : renderMoney(proposal.cost)}`,
    `  Risk:     ${proposal.risk}`,
    `  Undo:     ${undo}`,
    `  Expires:  ${renderTime(proposal.expires)} (in ${roughDuration(proposal.expires - now)})`,
    '',
    `  The service says: ${view.message ?? '(no message)'}`,
  ];
  if (consent.summary !== proposal.summary) {
    lines.push(
      `  Its consent summary reads: ${consent.summary} (the lines above are what you sign)`,
    );
  }
  lines.push(
    '',
    `Approving signs, with your principal key, a one-shot consent for ${view.agent}:`,
    `only a COMMIT of exactly this proposal (hash ${consent.hash}) at ${consent.service}, until ${renderTime(consent.expires)}.`,
    '',
  );
  return terminalText(lines.join('\n'), true);
}
