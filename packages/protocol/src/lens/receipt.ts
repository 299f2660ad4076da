import type { ReceiptBody } from '../frames.js';
import { isPlainObject } from '../json.js';
import { renderEffect } from './effect.js';
import { writeEntry } from './lean.js';
import { renderTime } from './time.js';
import type { LensWriter } from './writer.js';

/**
 * §9.2 RECEIPT: `✓ {summary} (receipt {id})[ (replay)] · {undo until {time} | irreversible}`,
 * the effects only for auto-commits, then the result as a lean `result` entry at indent 1. An
 * undo receipt's first line is `↶ undid {undoes}: {summary} (receipt {id})[ (replay)]`, followed
 * only by the result. A replay of a receipt that was undone since says so on its second line,
 * `  undone {time} (receipt {id})` (the `undone` field, an addition to §5: see ReceiptBody).
 */
export function writeReceipt(w: LensWriter, body: ReceiptBody): void {
  const receipt = body.receipt;
  const tag = `(receipt ${receipt.id})${body.replay === true ? ' (replay)' : ''}`;
  if (receipt.undoes !== undefined) {
    w.line(0, `↶ undid ${receipt.undoes}: ${receipt.summary} ${tag}`);
  } else {
    const undo =
      receipt.undo === null ? 'irreversible' : `undo until ${renderTime(receipt.undo.until)}`;
    w.line(0, `✓ ${receipt.summary} ${tag} · ${undo}`);
    const undone: unknown = body.undone;
    if (
      isPlainObject(undone) &&
      typeof undone.receipt === 'string' &&
      Number.isSafeInteger(undone.at)
    ) {
      w.line(1, `undone ${renderTime(undone.at as number)} (receipt ${undone.receipt})`);
    }
    // Otherwise the model has already read the effects in the proposal.
    if (body.auto === true) for (const effect of receipt.effects) w.line(1, renderEffect(effect));
  }
  if (receipt.result !== undefined) writeEntry(w, 'result', receipt.result, 1);
}
