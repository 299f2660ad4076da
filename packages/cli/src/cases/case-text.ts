import {
  type Constraint,
  optionsLeftNote,
  optionsLeftSentence,
  type PyObject,
  type PyValue,
  pyDumps,
} from '@parley/consensus';

/** A holder's view of a case (`CaseService.view`), as the CLI reads it. */
export interface CaseViewShape {
  id: string;
  title: string;
  decision: string;
  state: string;
  round: number;
  organizer: string;
  options: PyObject[];
  parties: { name: string; sheet: string; answer: string }[];
  proposal: { status: string; decision: PyValue; transcript_sha256: string } | null;
  receipt: string | null;
  disclosed: { id: string; owner: string; filename: string; size: number }[];
  you?: {
    name: string;
    sheet: string;
    answer: string;
    answers: Record<string, string>;
    draft: {
      version: string;
      rendered: string;
      hard: { id: string; constraint: Constraint }[];
    } | null;
    evidence: { id: string; filename: string; size: number; shared: boolean }[];
    sheet_confirmed: { options_left: number | null } | null;
  };
  links?: { party: string; name: string; live: boolean; expires_at: number | null }[];
  outbox?: {
    to: string;
    kind: string;
    subject: string;
    text: string;
    link: string | null;
    sent_at: number | null;
  }[];
}

const SHEET_WORDS: Readonly<Record<string, string>> = {
  none: 'not started',
  draft: 'drafting',
  confirmed: 'confirmed',
};

/** What `parley cases status` prints: plain words, no private part but the holder's own. */
export function caseText(view: CaseViewShape): string {
  // The names' column: wide enough that a long name ("Ben, the landlord") keeps a space after it.
  const width = Math.max(16, ...view.parties.map((p) => p.name.length + 1));
  const lines = [
    `${view.title}  (${view.id})`,
    `  ${view.decision}`,
    `  state ${view.state}, round ${view.round} of 3, opened by ${view.organizer}`,
    '',
    ...view.parties.map(
      (p) =>
        `  ${p.name.padEnd(width)} sheet ${SHEET_WORDS[p.sheet] ?? p.sheet}${p.answer === 'none' ? '' : `, ${p.answer}`}`,
    ),
  ];
  if (view.proposal !== null) {
    lines.push(
      '',
      view.proposal.status === 'deadlock'
        ? "  No option meets every party's limits (an honest deadlock)."
        : `  Proposal: ${pyDumps(view.proposal.decision)}`,
      `  transcript ${view.proposal.transcript_sha256}`,
    );
  }
  if (view.you !== undefined) {
    lines.push('', `You are ${view.you.name}.`);
    if (view.you.draft !== null) {
      lines.push('Your draft (only you see it):', view.you.draft.rendered.replace(/^/gm, '  '));
      lines.push(`  version ${view.you.draft.version}`);
      const note = draftOptionsNote(view);
      if (note !== null) lines.push(`  ${note}`);
    } else {
      const note = confirmedOptionsNote(view);
      if (note !== null) lines.push(note);
    }
    if (view.you.evidence.length > 0) {
      lines.push('Your files:');
      for (const e of view.you.evidence)
        lines.push(
          `  ${e.id}  ${e.filename} (${e.size} bytes), ${e.shared ? 'shared' : 'only you see it'}`,
        );
    }
  }
  const others = view.disclosed.filter((d) => d.owner !== view.you?.name);
  if (others.length > 0) {
    lines.push('', 'Files the others shared:');
    for (const d of others)
      lines.push(`  ${d.id}  ${d.filename} (${d.size} bytes), from ${d.owner}`);
  }
  if (view.links !== undefined) {
    lines.push('', 'Links:');
    for (const l of view.links)
      lines.push(`  ${l.name.padEnd(width)} ${l.live ? 'live' : 'not live (revoked or expired)'}`);
  }
  if (view.receipt !== null)
    lines.push('', 'The receipt is ready: parley cases receipt LINK --out receipt.json');
  return `${lines.join('\n')}\n`;
}

/** How many of the case's options the holder's draft red lines leave (module 03), or null. */
export function draftOptionsNote(view: CaseViewShape): string | null {
  const draft = view.you?.draft ?? null;
  return draft === null
    ? null
    : optionsLeftNote(
        draft.hard.map((h) => h.constraint),
        view.options,
      );
}

/**
 * What the holder's confirmed red lines leave of the options, while they may still change them
 * (waiting for the others, or after a round that ended with a round left), or null.
 */
function confirmedOptionsNote(view: CaseViewShape): string | null {
  const left = view.you?.sheet_confirmed?.options_left ?? null;
  const open = view.state === 'eliciting' || (view.state === 'revising' && view.round < 3);
  return left === null || !open
    ? null
    : optionsLeftSentence(left, view.options.length, 'confirmed red lines');
}

/** The outbox as the organizer hands it over: to whom, what, and the link. */
export function outboxText(view: CaseViewShape): string {
  const messages = view.outbox ?? [];
  if (messages.length === 0) return 'The outbox is empty.\n';
  return `${messages
    .map(
      (m) =>
        `To ${m.to} (${m.kind}): ${m.subject}\n  ${m.text}${m.link === null ? '' : `\n  ${m.link}`}`,
    )
    .join('\n\n')}\n`;
}
