import type { ReceiptBody } from '../frames.js';
import { renderEffect } from './effect.js';
import { writeEntry } from './lean.js';
import { renderTime } from './time.js';
import type { LensWriter } from './writer.js';

/**
 * §9.2 RECEIPT: `✓ {summary} (receipt {id})[ (replay)] · {undo until {time} | irreversible}`,
 * the effects only for auto-commits, then the result as a lean `result` entry at indent 1. An
 * undo receipt's first line is `↶ undid {undoes}: {summary} (receipt {id})[ (replay)]`, followed
 * only by the result.
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
    // Otherwise the model has already read the effects in the proposal.
    if (body.auto === true) for (const effect of receipt.effects) w.line(1, renderEffect(effect));
  }
  if (receipt.result !== undefined) writeEntry(w, 'result', receipt.result, 1);
}
