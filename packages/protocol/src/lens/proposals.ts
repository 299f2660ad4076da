import type { Effect, Proposal, ProposalsBody } from '../frames.js';
import { renderEffect } from './effect.js';
import { writeEntry } from './lean.js';
import { renderMoney } from './money.js';
import { renderDuration, renderTime } from './time.js';
import type { LensWriter } from './writer.js';

/** §9.2: proposal attributes, in their fixed order. */
export const PROPOSAL_ATTRIBUTES = ['cost', 'risk', 'undo', 'expires'] as const;

/** §9.2: attributes joined with this. */
const ATTRIBUTE_SEPARATOR = ' · ';
/** Memo role (LensWriter.reuse) of a proposal's effect lines. */
const EFFECTS = 'f';

/**
 * Each attribute of a proposal as it renders: `cost: 12.50 USD`, ..., in PROPOSAL_ATTRIBUTES order.
 */
function attributesOf(proposal: Proposal): string[] {
  return [
    `cost: ${proposal.cost === null ? 'free' : renderMoney(proposal.cost)}`,
    `risk: ${proposal.risk}`,
    `undo: ${proposal.undo === null ? 'never' : renderDuration(proposal.undo.window)}`,
    `expires: ${renderTime(proposal.expires)}`,
  ];
}

/**
 * §9.2 PROPOSALS: a header with the attributes every proposal shares (N ≥ 2), then per proposal
 * `[{id}] {summary}`, its effect lines, its own attributes and its data (a lean `data` entry at
 * indent 1, like a receipt's result).
 */
export function writeProposals(w: LensWriter, body: ProposalsBody): void {
  const proposals = body.proposals;
  const count = proposals.length;
  const attributes = proposals.map(attributesOf);
  const shared = PROPOSAL_ATTRIBUTES.map(
    (_, a) => count >= 2 && attributes.every((own) => own[a] === attributes[0]?.[a]),
  );
  const header = (attributes[0] ?? []).filter((_, a) => shared[a]).join(ATTRIBUTE_SEPARATOR);
  w.line(0, `${count} ${count === 1 ? 'proposal' : 'proposals'}${header ? ` — ${header}` : ''}:`);
  for (let i = 0; i < count; i++) {
    const proposal = proposals[i] as Proposal;
    w.line(0, `[${proposal.id}] ${proposal.summary}`);
    writeEffects(w, proposal.effects);
    const own = (attributes[i] as string[]).filter((_, a) => !shared[a]);
    if (own.length > 0) w.line(1, own.join(ATTRIBUTE_SEPARATOR));
    if (proposal.data !== undefined) writeEntry(w, 'data', proposal.data, 1);
  }
}

/**
 * A proposal's effect lines at indent 1. Fitting never changes effects (§8), so while it measures
 * a reply again and again they are rendered once per run, not once per halving.
 */
function writeEffects(w: LensWriter, effects: readonly Effect[]): void {
  if (effects.length === 0 || w.reuse(effects, EFFECTS, 1)) return;
  const ticket = w.open();
  for (const effect of effects) w.line(1, renderEffect(effect));
  w.keep(effects, EFFECTS, 1, ticket);
}
