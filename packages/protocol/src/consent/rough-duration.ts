import { renderDuration } from '../lens/time.js';

/** A duration for people, in its largest whole unit rounded down: "6d", "3h", "12m", "40s". */
export function roughDuration(seconds: number): string {
  for (const unit of [86_400, 3_600, 60]) {
    if (seconds >= unit) return renderDuration(Math.floor(seconds / unit) * unit);
  }
  return renderDuration(Math.max(0, Math.floor(seconds)));
}
