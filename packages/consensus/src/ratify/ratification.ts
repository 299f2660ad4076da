import type { KeyPair } from '@parley/protocol';
import { RatifyError } from '../errors.js';
import type { PyValue } from '../py-json/value.js';
import type { Receipt } from '../receipt/receipt.js';
import { type ReceiptReport, verifyReceipt } from '../receipt/verify-receipt.js';
import type { Evaluation, PreferenceSheet } from '../sheet/preference-sheet.js';
import { publicKeyHex } from '../signing/keys.js';
import { type Acceptance, signAcceptance } from './acceptance.js';
import { ratify } from './ratify.js';

/**
 * What one owner is shown before ratifying, on their own screen only: the decision, the record
 * it comes from, the receipt's own checks, and what the decision means against the owner's own
 * sheet (replayed locally; the sheet and this view never leave the owner).
 */
export interface RatificationView {
  readonly owner: string;
  readonly title: string | null;
  readonly decision: PyValue;
  readonly transcriptHash: string;
  /** The receipt's checks (hash, max-min, signatures): a receipt that fails cannot be ratified. */
  readonly report: ReceiptReport;
  /** Whether every one of the owner's red lines holds on the decision. */
  readonly holds: boolean;
  /** The owner's own red lines the decision crosses, by the owner's names for them. */
  readonly crossed: readonly string[];
  /** The owner's score for the decision, from 0 to 1; null when it crosses a red line. */
  readonly score: number | null;
  /** 1 when the decision is the owner's favourite of the options they find acceptable. */
  readonly rank: number | null;
  /** How many of the options on the table the owner's red lines allow, of how many. */
  readonly acceptable: number;
  readonly options: number;
}

/**
 * The first half of ratifying: checks the receipt and replays the owner's own sheet on its
 * decision and on every option in its record. RatifyError when there is nothing this owner can
 * ratify (a deadlock, or an owner the record does not name).
 */
export async function ratificationView<O>(
  receipt: Receipt,
  sheet: PreferenceSheet<O>,
): Promise<RatificationView> {
  const t = receipt.transcript;
  if (t.result === null || t.result.status !== 'agreed' || t.result.decision === null) {
    throw new RatifyError('the record is a deadlock or unfinished: there is no decision to ratify');
  }
  const owners = new Set(t.entries.flatMap((e) => e.verdicts.map((v) => v.owner)));
  if (!owners.has(sheet.owner)) {
    throw new RatifyError(`${JSON.stringify(sheet.owner)} is not an owner in this record`);
  }
  const decision = t.result.decision;
  const mine = evaluateFailClosed(sheet, decision as O);
  const scores = t.entries
    .map((e) => evaluateFailClosed(sheet, e.option as O))
    .filter((e) => e.feasible)
    .map((e) => e.score);
  const score = mine.feasible ? mine.score : null;
  return {
    owner: sheet.owner,
    title: receipt.title,
    decision,
    transcriptHash: t.hash(),
    report: await verifyReceipt(receipt),
    holds: mine.feasible,
    crossed: mine.violated,
    score,
    rank: score === null ? null : 1 + scores.filter((s) => s > score).length,
    acceptable: scores.length,
    options: t.entries.length,
  };
}

/**
 * The second half: the owner's answer, signed with the owner's key (`acceptance/0.1`), bound to
 * this record's hash and decision. Refused (RatifyError, nothing signed) when the receipt fails
 * its checks, when its roster pins another key for this owner, or when accepting a decision the
 * owner's own red lines reject.
 */
export async function signRatification<O>(
  receipt: Receipt,
  sheet: PreferenceSheet<O>,
  accept: boolean,
  key: KeyPair,
): Promise<Acceptance> {
  const view = await ratificationView(receipt, sheet);
  if (!view.report.ok) {
    const failed = view.report.checks.find((c) => c.status === 'failed');
    throw new RatifyError(`refusing to sign: the receipt fails its ${failed?.name ?? ''} check`);
  }
  const pinned = receipt.roster?.[sheet.owner] ?? receipt.session?.roster[sheet.owner];
  if (pinned !== undefined && pinned !== publicKeyHex(key)) {
    throw new RatifyError(
      `refusing to sign: the receipt pins another key for ${JSON.stringify(sheet.owner)}; sign with the key the delegate signed with`,
    );
  }
  return signAcceptance(ratify(sheet, receipt.transcript, accept), key);
}

/**
 * The owner's own sheet on an option; a sheet that throws makes it a red line, as a delegate does.
 */
function evaluateFailClosed<O>(sheet: PreferenceSheet<O>, option: O): Evaluation {
  try {
    return sheet.evaluate(option);
  } catch {
    return { feasible: false, violated: ['(your sheet could not evaluate this option)'], score: 0 };
  }
}
