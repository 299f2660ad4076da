import type { ConsensusResult } from '../decision/run.js';
import { ConsensusError } from '../errors.js';
import { pyDumps } from '../py-json/dumps.js';
import { parsePyJson } from '../py-json/parse.js';
import { getOwn, isPyObject, type PyObject, type PyValue } from '../py-json/value.js';
import { type Acceptance, readAcceptance } from '../ratify/acceptance.js';
import { rosterHex } from '../signing/keys.js';
import { VERDICT_KINDS, type VerdictKind } from '../signing/payloads.js';
import type { Session } from '../signing/session.js';
import { OPTION_HASH } from '../signing/session-options.js';
import { STATUSES, type Status, Transcript } from '../transcript/transcript.js';

/** The `format` a receipt file written by this package carries. */
export const RECEIPT_FORMAT = 'parley-receipt/1';

/**
 * A receipt file: the record, its hash, and what a checker needs beside it. The output of
 * `parley decide --json` is a receipt too (no roster, no acceptances), and so is the receipt
 * parley-consensus's examples/real_decision.py writes (`transcript_hash` for the hash).
 */
export interface Receipt {
  readonly title: string | null;
  readonly status: Status;
  readonly decision: PyValue;
  readonly transcript: Transcript;
  readonly transcript_sha256: string;
  /** The owners expected in every entry. Written by the coordinator: a claim, not a proof. */
  readonly participants: readonly string[] | null;
  /** Owner -> Ed25519 public key (hex) that verdicts and acceptances are pinned to. */
  readonly roster: Readonly<Record<string, string>> | null;
  /** The `verdict/0.2` session the verdicts were signed in. */
  readonly session: Session | null;
  /**
   * Owner -> what that owner's verdicts are (`verdict/0.2` in the session, `verdict/0.1`, or
   * `unsigned`). Absent in Python's receipts and older ones: then every verdict is `verdict/0.2`
   * when there is a session, else `verdict/0.1`.
   */
  readonly verdict_kinds: Readonly<Record<string, VerdictKind>> | null;
  readonly acceptances: readonly Acceptance[];
  /** Claims a Python receipt may carry; the checker recomputes both. */
  readonly max_min_verified: boolean | null;
  readonly unanimous_acceptance: boolean | null;
}

export interface ReceiptExtras {
  readonly title?: string;
  readonly participants?: readonly string[];
  readonly roster?: Readonly<Record<string, string>>;
  readonly session?: Session;
  readonly verdict_kinds?: Readonly<Record<string, VerdictKind>>;
  readonly acceptances?: readonly Acceptance[];
}

/** The receipt for a finished parley. */
export function makeReceipt<O>(result: ConsensusResult<O>, extras: ReceiptExtras = {}): Receipt {
  return {
    title: extras.title ?? null,
    status: result.status,
    decision: result.transcript.result?.decision ?? null,
    transcript: result.transcript,
    transcript_sha256: result.transcript.hash(),
    participants: extras.participants ?? null,
    roster: extras.roster ?? null,
    session: extras.session ?? null,
    verdict_kinds: extras.verdict_kinds ?? null,
    acceptances: extras.acceptances ?? [],
    max_min_verified: null,
    unanimous_acceptance: null,
  };
}

/** The JSON form of a receipt (absent parts left out). */
export function receiptToDict(receipt: Receipt): PyObject {
  const out: Record<string, PyValue> = {
    format: RECEIPT_FORMAT,
    status: receipt.status,
    decision: receipt.decision,
    transcript: receipt.transcript.toDict(),
    transcript_sha256: receipt.transcript_sha256,
  };
  if (receipt.title !== null) out.title = receipt.title;
  if (receipt.participants !== null) out.participants = receipt.participants;
  if (receipt.roster !== null) out.roster = { ...receipt.roster };
  if (receipt.session !== null) out.session = sessionToDict(receipt.session);
  if (receipt.verdict_kinds !== null) out.verdict_kinds = { ...receipt.verdict_kinds };
  if (receipt.acceptances.length > 0) {
    out.acceptances = receipt.acceptances.map((a) => ({ ...a }));
  }
  if (receipt.max_min_verified !== null) out.max_min_verified = receipt.max_min_verified;
  if (receipt.unanimous_acceptance !== null) {
    out.unanimous_acceptance = receipt.unanimous_acceptance;
  }
  return out;
}

/** A receipt file's text: sorted keys, two-space indent, floats as Python prints them. */
export function writeReceipt(receipt: Receipt): string {
  return `${pyDumps(receiptToDict(receipt), { indent: 2 })}\n`;
}

/** Reads a receipt file (JSON text with Python number typing, or a value). */
export function readReceipt(input: string | PyValue): Receipt {
  const raw = typeof input === 'string' ? parsePyJson(input) : input;
  if (!isPyObject(raw)) fail('a receipt must be a JSON object');
  const format = getOwn(raw, 'format');
  if (format !== undefined && format !== RECEIPT_FORMAT) {
    fail(`unknown receipt format ${JSON.stringify(format)}; this reads ${RECEIPT_FORMAT}`);
  }
  const transcriptValue = getOwn(raw, 'transcript');
  if (transcriptValue === undefined) fail('a receipt needs a transcript');
  const transcript = Transcript.fromDict(transcriptValue);
  const hash = getOwn(raw, 'transcript_sha256') ?? getOwn(raw, 'transcript_hash');
  if (typeof hash !== 'string') fail('a receipt needs transcript_sha256, a hex string');
  const status = getOwn(raw, 'status') ?? transcript.result?.status;
  if (!STATUSES.includes(status as Status)) fail('status must be "agreed" or "deadlock"');
  const decision = getOwn(raw, 'decision');
  return {
    title: optional(raw, 'title', (v): v is string => typeof v === 'string'),
    status: status as Status,
    decision: decision === undefined ? (transcript.result?.decision ?? null) : decision,
    transcript,
    transcript_sha256: hash,
    participants: optional(raw, 'participants', isStringList),
    roster: keysOf(optional(raw, 'roster', isStringMap), 'roster'),
    session: sessionOf(optional(raw, 'session', isSession)),
    verdict_kinds: optional(raw, 'verdict_kinds', isKindMap),
    acceptances: acceptancesOf(getOwn(raw, 'acceptances')),
    max_min_verified: optional(raw, 'max_min_verified', isBoolean),
    unanimous_acceptance: optional(raw, 'unanimous_acceptance', isBoolean),
  };
}

function fail(message: string): never {
  throw new ConsensusError('bad_receipt', message);
}

/** A roster with every key checked and in lowercase hex, or null. */
function keysOf(
  roster: Readonly<Record<string, string>> | null,
  key: string,
): Readonly<Record<string, string>> | null {
  if (roster === null) return null;
  try {
    return rosterHex(roster);
  } catch {
    return fail(`${key} holds a key that is not 64 hex characters or "ed25519:" + base64url`);
  }
}

function sessionToDict(session: Session): PyObject {
  const out: Record<string, PyValue> = { nonce: session.nonce, roster: { ...session.roster } };
  if (session.options_sha256 !== undefined) out.options_sha256 = session.options_sha256;
  return out;
}

function sessionOf(session: Session | null): Session | null {
  if (session === null) return null;
  const roster = keysOf(session.roster, 'session.roster') ?? {};
  const options = session.options_sha256;
  return options === undefined
    ? { nonce: session.nonce, roster }
    : { nonce: session.nonce, roster, options_sha256: options };
}

function optional<T>(
  raw: PyObject,
  key: string,
  check: (v: PyValue) => v is T & PyValue,
): T | null {
  const value = getOwn(raw, key);
  if (value === undefined || value === null) return null;
  if (!check(value)) fail(`${key} has the wrong shape (see the receipt format in the README)`);
  return value;
}

function isBoolean(v: PyValue): v is boolean {
  return typeof v === 'boolean';
}

function isStringList(v: PyValue): v is readonly string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function isStringMap(v: PyValue): v is Readonly<Record<string, string>> {
  return isPyObject(v) && Object.values(v).every((x) => typeof x === 'string');
}

function isSession(v: PyValue): v is PyObject & Session {
  if (!isPyObject(v)) return false;
  const roster = getOwn(v, 'roster');
  const options = getOwn(v, 'options_sha256');
  return (
    typeof getOwn(v, 'nonce') === 'string' &&
    roster !== undefined &&
    isStringMap(roster) &&
    (options === undefined || (typeof options === 'string' && OPTION_HASH.test(options)))
  );
}

function isKindMap(v: PyValue): v is Readonly<Record<string, VerdictKind>> {
  return (
    isPyObject(v) &&
    Object.values(v).every((k) => (VERDICT_KINDS as readonly PyValue[]).includes(k))
  );
}

function acceptancesOf(value: PyValue | undefined): Acceptance[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    fail('acceptances has the wrong shape (see the receipt format in the README)');
  return (value as readonly PyValue[]).map((a) => readAcceptance(a));
}
