import type {
  Acceptance,
  ConfirmedSheet,
  Interview,
  PyObject,
  PyValue,
  Session,
  SheetDraft,
} from '@parley/consensus';

/**
 * The states of a case (module 01's `draft → inviting → eliciting → ready → proposing →
 * ratifying → agreed|deadlocked|expired|cancelled`). Here a case is created with its parties and
 * links in one step, so `draft` and `inviting` fold into `eliciting`; `ready` and `proposing`
 * last no longer than the transition that confirms the last sheet (the engine runs inside it),
 * so they are never stored. `revising` is a round that ended (a rejection or a deadlock) while
 * rounds remain: a party may revise privately, or the initiator may close the case. `expired`
 * is not a state: retention deletes the case instead.
 */
export const CASE_STATES = [
  'eliciting',
  'ratifying',
  'revising',
  'agreed',
  'rejected',
  'deadlocked',
  'cancelled',
] as const;
export type CaseState = (typeof CASE_STATES)[number];

/** States no step leaves (module 01: terminal cases are immutable except for deletion). */
export const TERMINAL_STATES = [
  'agreed',
  'rejected',
  'deadlocked',
  'cancelled',
] as const satisfies readonly CaseState[];

export function isTerminal(state: CaseState): boolean {
  return (TERMINAL_STATES as readonly CaseState[]).includes(state);
}

/** Where a party's private position stands, as every party may see it. */
export const SHEET_STATES = ['none', 'draft', 'confirmed'] as const;
export type SheetState = (typeof SHEET_STATES)[number];

/** A party's answer on the current proposal, as every party may see it. */
export const ANSWERS = ['none', 'accepted', 'rejected'] as const;
export type PartyAnswer = (typeof ANSWERS)[number];

/** A party as everyone in the case sees them: a name and progress, nothing private. */
export interface Party {
  readonly id: string;
  readonly name: string;
  readonly sheet: SheetState;
  readonly answer: PartyAnswer;
  /** Ed25519 public key (hex) the server signs this party's verdicts and acceptance with. */
  readonly pubkey_hex: string;
}

/** A capability link, kept only as the SHA-256 of its token. */
export interface Link {
  /** A party id, or `organizer`. */
  readonly holder: string;
  readonly hash: string;
  readonly issued_at: number;
  readonly expires_at: number;
  readonly revoked: boolean;
}

/** One round's outcome: the engine's record over masked verdicts. */
export interface Proposal {
  readonly round: number;
  readonly status: 'agreed' | 'deadlock';
  /** The option proposed; null for a deadlock. */
  readonly decision: PyValue;
  /** The masked transcript (`Transcript.toDict()`), verdicts signed per party. */
  readonly transcript: PyValue;
  readonly transcript_sha256: string;
  readonly session: Session;
}

/** One entry of the append-only history (module 01: actor, time, prior version, event type). */
export interface CaseEvent {
  readonly at: number;
  readonly actor: string;
  readonly type: string;
  readonly prior_version: number;
}

/** What the case sends (module 10): title and action only, never substance. */
export interface OutboxMessage {
  readonly id: string;
  /** A party id, or `organizer`. */
  readonly to: string;
  readonly kind: string;
  readonly subject: string;
  readonly text: string;
  /** The link inside, sealed with a key only the organizer's own token derives (null: none). */
  readonly sealed_link: string | null;
  readonly dedupe: string;
  readonly created_at: number;
  readonly sent_at: number | null;
}

/** An evidence file that its owner disclosed: what the others may see of it. */
export interface DisclosedEvidence {
  readonly id: string;
  readonly owner: string;
  readonly filename: string;
  readonly type: string;
  readonly size: number;
  readonly sha256: string;
  readonly disclosed_at: number;
}

/** What every party of the case may see (module 09's shared store). */
export interface SharedCase {
  readonly id: string;
  readonly title: string;
  readonly decision: string;
  readonly options: readonly PyObject[];
  readonly organizer: string;
  readonly parties: readonly Party[];
  readonly links: readonly Link[];
  readonly state: CaseState;
  readonly round: number;
  readonly proposal: Proposal | null;
  /** Signed acceptances of the current proposal. */
  readonly acceptances: readonly Acceptance[];
  readonly disclosed: readonly DisclosedEvidence[];
  /** The receipt file's text, once the case is finished. */
  readonly receipt: string | null;
  readonly outbox: readonly OutboxMessage[];
  readonly events: readonly CaseEvent[];
  readonly created_at: number;
  readonly updated_at: number;
  readonly version: number;
}

/** An evidence file as its owner holds it. */
export interface EvidenceItem {
  readonly id: string;
  readonly filename: string;
  readonly type: string;
  readonly size: number;
  readonly sha256: string;
  readonly uploaded_at: number;
  readonly shared: boolean;
  /** Base64 of the bytes. */
  readonly content: string;
  /** Disclosure history (module 04: it survives export). */
  readonly history: readonly { readonly at: number; readonly act: 'disclosed' | 'withdrawn' }[];
}

/** One party's private workspace (module 09's owner-private store): encrypted at rest. */
export interface PartyPrivate {
  readonly party: string;
  readonly interview: Interview;
  readonly draft: SheetDraft | null;
  readonly sheet: ConfirmedSheet | null;
  /** Hex of the Ed25519 seed this party's delegate signs with. */
  readonly key_seed: string;
  readonly notes: readonly string[];
  readonly evidence: readonly EvidenceItem[];
}

/** A whole case: the shared part and each party's private part. */
export interface CaseRecord {
  readonly shared: SharedCase;
  readonly privates: Readonly<Record<string, PartyPrivate>>;
}

/** What transitions are given: the time (seconds) and random bytes, both pinned in tests. */
export interface Clock {
  readonly now: number;
  readonly random: (length: number) => Uint8Array;
}
