import type { Consent } from '../errors.js';
import type { Proposal } from '../frames.js';
import { renderEffect } from '../lens/effect.js';
import { renderMoney } from '../lens/money.js';
import { renderDuration, renderTime } from '../lens/time.js';
import { roughDuration } from './rough-duration.js';
import { escapeIdentifier, escapeServiceText, isPlainIdentifier } from './service-text.js';

/** What a person is asked to approve (§6.6), as the agent side received and checked it. */
export type ConsentRequest = {
  consent: Consent;
  /** The proposal the agent received; its hash was recomputed and equals consent.hash (§5.1). */
  proposal: Proposal;
  /** The service id the agent's connection learnt from HELLO, and the URL it dialled. */
  service: string;
  url: string;
  /** The agent key the consent grant will name. */
  agent: string;
  /** The ERROR message that asked for consent: the service's own words. */
  message?: string;
};

/**
 * §6.6: the consent screen, section by section, every string from a service escaped
 * (`escapeServiceText`, `escapeIdentifier`). Each field is one line of plain text; a page
 * shows them as text nodes, a terminal as `consentLines`.
 */
export type ConsentScreen = {
  /** "Your agent asks you to approve a commit at SERVICE (URL)." */
  heading: string;
  /** Identifiers shown with `\u{…}` escapes, each a sentence saying so. */
  warnings: string[];
  /** §5.1: the proposal's summary. */
  summary: string;
  /** "proposal ID · CAPABILITY" */
  proposal: string;
  /** §9.2: one line per declared effect (`$ charge card/1 — 104.98 USD`). */
  effects: string[];
  cost: string;
  risk: string;
  undo: string;
  /** The proposal's expiry, with how long from now. */
  expires: string;
  /** The service's words: its ERROR message, and its consent summary when that differs. */
  reason: string[];
  /** Exactly what approving signs (§6.6), in two sentences. */
  signs: string[];
  /** docs/extensions.md §E4: "1 of 2 approvals …", when several people must approve. */
  approvals?: string;
};

/**
 * §6.6: renders what a person approves. Everything the hash binds comes from the proposal
 * itself: summary, effects, cost, risk, undo window and expiry (§5.1); `data`, which the hash
 * does not cover, is not shown. The service's own words follow, labelled as such. `now` is
 * unix seconds, for the expiry's relative time. Pure: no I/O, runs in browsers.
 */
export function renderConsent(request: ConsentRequest, now: number): ConsentScreen {
  const { proposal, consent } = request;
  const warnings: string[] = [];
  const identifier = (label: string, text: string): string => {
    if (!isPlainIdentifier(text)) {
      warnings.push(
        `Warning: the ${label} has characters outside ASCII, shown as \\u{…}: they can imitate other letters, so compare it character by character.`,
      );
    }
    return escapeIdentifier(text);
  };
  const service = identifier('service id', request.service);
  const url = identifier('service URL', request.url);
  const proposalId = identifier('proposal id', proposal.id);
  const capability = identifier('capability', proposal.capability);
  const agent = identifier('agent key', request.agent);
  const consentService = identifier("consent request's service", consent.service);
  const reason = [`The service says: ${escapeServiceText(request.message ?? '(no message)')}`];
  if (consent.summary !== proposal.summary) {
    reason.push(
      `Its consent summary reads: ${escapeServiceText(consent.summary)} (the lines above are what you sign)`,
    );
  }
  const left = proposal.expires - now;
  const approvals = consent.approvals;
  return {
    ...(approvals === undefined
      ? {}
      : {
          approvals: `${approvals.have} of ${approvals.need} approvals so far, from ${approvals.of.length} people listed; each person counts once`,
        }),
    heading: `Your agent asks you to approve a commit at ${service} (${url}).`,
    warnings: [...new Set(warnings)],
    summary: escapeServiceText(proposal.summary),
    proposal: `proposal ${proposalId} · ${capability}`,
    effects: proposal.effects.map((effect) => escapeServiceText(renderEffect(effect))),
    cost: proposal.cost === null ? 'free' : escapeServiceText(renderMoney(proposal.cost)),
    risk: escapeServiceText(String(proposal.risk)),
    undo:
      proposal.undo === null
        ? 'cannot be undone'
        : `can be undone for ${renderDuration(proposal.undo.window)} after it is done`,
    expires: `${renderTime(proposal.expires)} (${left > 0 ? `in ${roughDuration(left)}` : 'expired'})`,
    reason,
    signs: [
      `Approving signs, with your principal key, a one-shot consent for ${agent}:`,
      `only a COMMIT of exactly this proposal (hash ${escapeIdentifier(consent.hash)}) at ${consentService}, until ${renderTime(consent.expires)}.`,
    ],
  };
}

/** The consent screen as lines of text, for a terminal or an MCP elicitation message. */
export function consentLines(screen: ConsentScreen): string[] {
  return [
    screen.heading,
    ...screen.warnings,
    '',
    `  ${screen.summary}`,
    `  ${screen.proposal}`,
    '',
    '  What it will do:',
    ...(screen.effects.length === 0
      ? ['    (no effects declared)']
      : screen.effects.map((effect) => `    ${effect}`)),
    '',
    `  Cost:     ${screen.cost}`,
    `  Risk:     ${screen.risk}`,
    `  Undo:     ${screen.undo}`,
    `  Expires:  ${screen.expires}`,
    ...(screen.approvals === undefined ? [] : [`  Approvals: ${screen.approvals}`]),
    '',
    ...screen.reason.map((line) => `  ${line}`),
    '',
    ...screen.signs,
  ];
}
