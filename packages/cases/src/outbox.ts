import { newId } from '@parley/consensus';
import type { Clock, OutboxMessage, SharedCase } from './record.js';

/** The kinds of message a case sends (module 10's events that this build has). */
export const MESSAGE_KINDS = [
  'invite',
  'proposal_ready',
  'proposal_rejected',
  'agreement_reached',
  'deadlock',
  'receipt_ready',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

const TEXTS: Readonly<Record<MessageKind, string>> = {
  invite:
    'You are invited to decide something together. Your private link is below; it is yours alone, do not forward it.',
  proposal_ready: 'A proposal is ready for you to review. Open your link to read it and answer.',
  proposal_rejected:
    'The proposal was not accepted by everyone. Open your link to see what you can do next.',
  agreement_reached: 'Everyone accepted the proposal. Open your link to see the receipt.',
  deadlock: "No option met everyone's limits. Open your link to see what happens next.",
  receipt_ready: 'The receipt is ready. Open your link to download it.',
};

/**
 * A message for the outbox: the case title and an action, never constraints, scores, proposal
 * terms or another party's activity (module 10). Deduplicated by `dedupe`.
 */
export function outboxMessage(
  shared: Pick<SharedCase, 'title' | 'outbox'>,
  init: {
    readonly to: string;
    readonly kind: MessageKind;
    readonly dedupe: string;
    readonly sealedLink?: string;
  },
  clock: Clock,
): OutboxMessage | null {
  if (shared.outbox.some((m) => m.dedupe === init.dedupe)) return null;
  return {
    id: newId('msg', clock.random),
    to: init.to,
    kind: init.kind,
    subject: `Parley: ${shared.title}`,
    text: TEXTS[init.kind],
    sealed_link: init.sealedLink ?? null,
    dedupe: init.dedupe,
    created_at: clock.now,
    sent_at: null,
  };
}

/** The outbox with a message to every party of `to` (each at most once by its dedupe key). */
export function notifyParties(
  shared: Pick<SharedCase, 'title' | 'outbox' | 'parties'>,
  kind: MessageKind,
  dedupeSuffix: string,
  clock: Clock,
): readonly OutboxMessage[] {
  const out = [...shared.outbox];
  for (const party of shared.parties) {
    const message = outboxMessage(
      { title: shared.title, outbox: out },
      { to: party.id, kind, dedupe: `${kind}:${party.id}:${dedupeSuffix}` },
      clock,
    );
    if (message !== null) out.push(message);
  }
  return out;
}
