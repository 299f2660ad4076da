import { PROMPTS, type PyValue, redLinesLeave, renderDraft } from '@parley/consensus';
import { openLink } from './links.js';
import type { CaseRecord, SharedCase } from './record.js';
import { privateOf } from './step.js';

/** The events of the history the initiator's page shows. */
const PUBLIC_EVENTS: readonly string[] = [
  'created',
  'confirmed',
  'reopened',
  'proposed',
  'deadlock_round',
  'deadlocked',
  'accepted',
  'rejected',
  'agreed',
  'revision_started',
  'closed',
  'cancelled',
  'link_reissued',
  'link_revoked',
  'evidence_disclosed',
  'evidence_withdrawn',
];

/**
 * What every holder of a link to the case may see (module 01: names and completion states,
 * never private answers): the public agenda, progress, the proposal once decided (its option
 * and hash) and the receipt once finished.
 */
function publicPart(shared: SharedCase) {
  return {
    id: shared.id,
    title: shared.title,
    decision: shared.decision,
    options: shared.options,
    organizer: shared.organizer,
    state: shared.state,
    round: shared.round,
    version: shared.version,
    parties: shared.parties.map((p) => ({ name: p.name, sheet: p.sheet, answer: p.answer })),
    proposal:
      shared.proposal === null
        ? null
        : {
            round: shared.proposal.round,
            status: shared.proposal.status,
            decision: shared.proposal.decision,
            transcript_sha256: shared.proposal.transcript_sha256,
          },
    disclosed: shared.disclosed.map((d) => ({
      id: d.id,
      owner: shared.parties.find((p) => p.id === d.owner)?.name ?? '',
      filename: d.filename,
      type: d.type,
      size: d.size,
      sha256: d.sha256,
    })),
    receipt: shared.receipt,
  };
}

/** What `party` sees: the public part and their own private workspace, nobody else's. */
export function partyView(record: CaseRecord, party: string): PyValue {
  const own = privateOf(record, party);
  const me = record.shared.parties.find((p) => p.id === party);
  return {
    ...publicPart(record.shared),
    you: {
      name: me?.name ?? '',
      sheet: me?.sheet ?? 'none',
      answer: me?.answer ?? 'none',
      prompts: PROMPTS.map((p) => ({ id: p.id, question: p.question })),
      answers: { ...own.interview.answers },
      draft:
        own.draft === null
          ? null
          : {
              version: own.draft.version,
              rendered: renderDraft(own.draft),
              claims: own.draft.claims,
              hard: own.draft.hard.map((h) => ({
                id: h.id,
                constraint: h.constraint,
                source: h.source,
              })),
              utility: own.draft.utility.map((s) => ({ id: s.id, term: s.term, source: s.source })),
              clarifications: own.draft.clarifications.map((q) => ({
                id: q.id,
                question: q.question,
              })),
              rejected: own.draft.rejected.map((r) => ({ reason: r.reason, raw: r.raw })),
            },
      sheet_confirmed:
        own.sheet === null
          ? null
          : {
              version: own.sheet.version,
              rendered: own.sheet.rendered,
              // How many of the options the person's own confirmed limits leave (null: none
              // set): from their sheet and the public options alone, so it says nothing of the
              // others' (module 06); on a deadlock it tells them whether loosening could help.
              options_left: redLinesLeave(own.sheet.hard, record.shared.options),
            },
      notes: own.notes,
      evidence: own.evidence.map((e) => ({
        id: e.id,
        filename: e.filename,
        type: e.type,
        size: e.size,
        sha256: e.sha256,
        shared: e.shared,
        history: e.history,
      })),
    },
  } as unknown as PyValue;
}

/**
 * What the organizer sees: the public part, each party's progress and link state, and the
 * outbox with the links opened by the organizer's own token (the only key that opens them).
 */
export function organizerView(record: CaseRecord, organizerToken: string, now: number): PyValue {
  const { shared } = record;
  return {
    ...publicPart(shared),
    links: shared.parties.map((p) => {
      const live = shared.links.filter(
        (l) => l.holder === p.id && !l.revoked && l.expires_at > now,
      );
      return {
        party: p.id,
        name: p.name,
        live: live.length > 0,
        expires_at: live[0]?.expires_at ?? null,
      };
    }),
    outbox: shared.outbox.map((m) => ({
      id: m.id,
      to: shared.parties.find((p) => p.id === m.to)?.name ?? m.to,
      party: m.to,
      kind: m.kind,
      subject: m.subject,
      text: m.text,
      link: m.sealed_link === null ? null : openLink(organizerToken, shared.id, m.sealed_link),
      created_at: m.created_at,
      sent_at: m.sent_at,
    })),
    // Steps inside a person's private workspace (answering, drafting, a private document) are
    // not shown: module 04, others never learn a private file exists.
    events: shared.events.filter((e) => PUBLIC_EVENTS.includes(e.type)),
  } as unknown as PyValue;
}
