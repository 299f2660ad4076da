import { type EventReply, escapeServiceText, renderLens } from '@parley/protocol';
import type { CliContext } from '../cli-context.js';

const BAR_WIDTH = 24;
const MESSAGE_WIDTH = 100;
const CLEAR_LINE = '\r\x1b[2K';

/**
 * §2.2 EVENT replies on stderr: on a terminal, one progress bar redrawn in place; otherwise one
 * Lens line per event (`… message (42%)`), which logs and models read well.
 */
export class ProgressView {
  readonly #ctx: CliContext;
  #drawn = false;

  constructor(ctx: CliContext) {
    this.#ctx = ctx;
  }

  readonly onEvent = (event: EventReply): void => {
    if (!this.#ctx.stderrIsTty) {
      this.#ctx.err(`${renderLens(event)}\n`);
      return;
    }
    const progress = event.progress;
    const message = escapeServiceText(event.message.slice(0, MESSAGE_WIDTH));
    if (typeof progress !== 'number' || !Number.isFinite(progress)) {
      this.#ctx.err(`${this.#drawn ? CLEAR_LINE : ''}… ${message}\n`);
      this.#drawn = false;
      return;
    }
    const fraction = Math.min(1, Math.max(0, progress));
    const filled = Math.round(fraction * BAR_WIDTH);
    const percent = Math.floor(fraction * 100 + 0.5);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
    this.#ctx.err(`${CLEAR_LINE}${bar} ${String(percent).padStart(3)}% ${message}`);
    this.#drawn = true;
  };

  /** Clears the bar before the final reply is printed. */
  done(): void {
    if (this.#drawn) this.#ctx.err(CLEAR_LINE);
    this.#drawn = false;
  }
}
