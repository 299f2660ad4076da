import type { More } from '../frames.js';
import { renderScalar } from './scalar.js';
import type { LensWriter } from './writer.js';

/** §9.2: `… {remaining} more at {path} — EXPAND {handle} (~{est} tokens)`. */
export function renderMore(more: More): string {
  return `… ${renderScalar(more.remaining)} more at ${more.path} — EXPAND ${more.handle} (~${renderScalar(more.est)} tokens)`;
}

/** Memo role of a More line (see LensWriter.reuse). */
const MORE_LINE = 'm';

/** §9.2: one line per More, appended to any reply that has them. */
export function writeMore(w: LensWriter, more: readonly More[]): void {
  for (const entry of more) {
    if (w.reuse(entry, MORE_LINE, 0)) continue;
    const ticket = w.open();
    w.line(0, renderMore(entry));
    w.keep(entry, MORE_LINE, 0, ticket);
  }
}
