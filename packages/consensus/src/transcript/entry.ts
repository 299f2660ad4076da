import type { Verdict } from '../decision/verdict.js';
import type { PyValue } from '../py-json/value.js';

export const STATUSES = ['agreed', 'deadlock'] as const;
export type Status = (typeof STATUSES)[number];

/** One option and every owner's masked verdict on it, in agent order. */
export interface TranscriptEntry {
  readonly option: PyValue;
  readonly verdicts: readonly Verdict[];
}

/** The announced outcome; `decision` is null on a deadlock. */
export interface TranscriptResult {
  readonly status: Status;
  readonly decision: PyValue;
}
