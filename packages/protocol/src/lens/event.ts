import type { EventBody } from '../frames.js';
import type { LensWriter } from './writer.js';

/** §9.2: progress shows as floor(progress × 100 + 0.5) percent. */
export function renderProgress(progress: number): string {
  return `${Math.floor(progress * 100 + 0.5)}%`;
}

/**
 * §9.2 EVENT: `… {message}[ ({percent}%)]`. The template has no place for `data`, so it is not
 * shown; a non-finite progress (not JSON) shows no percentage.
 */
export function writeEvent(w: LensWriter, body: EventBody): void {
  const progress = body.progress;
  const suffix =
    progress !== undefined && Number.isFinite(progress) ? ` (${renderProgress(progress)})` : '';
  w.line(0, `… ${body.message}${suffix}`);
}
