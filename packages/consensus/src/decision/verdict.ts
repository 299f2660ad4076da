import { ConsensusError } from '../errors.js';
import type { Evaluation } from '../sheet/preference-sheet.js';

/** The masked reason: it never names the red line at stake. */
export const REASONS = ['ok', 'red-line'] as const;
export type Reason = (typeof REASONS)[number];

/**
 * All a coordinator ever sees of a sheet. Wire names as the Python package writes them;
 * `sig` and `pubkey_hex` are lowercase hex, or null for an unsigned (local) verdict.
 */
export interface Verdict {
  readonly owner: string;
  readonly acceptable: boolean;
  readonly score: number;
  readonly reason: Reason;
  readonly sig: string | null;
  readonly pubkey_hex: string | null;
}

/** The unsigned verdict for an evaluation: a rejected option reports score 0.0 (0.2.1 rule). */
export function maskVerdict(owner: string, evaluation: Evaluation): Verdict {
  const acceptable = evaluation.feasible;
  return {
    owner,
    acceptable,
    score: acceptable ? evaluation.score : 0.0,
    reason: acceptable ? 'ok' : 'red-line',
    sig: null,
    pubkey_hex: null,
  };
}

/** Checks a verdict an agent handed back (it may come from another process) before recording it. */
export function checkVerdict(verdict: Verdict, owner: string): Verdict {
  const problem = verdictProblem(verdict, owner);
  if (problem !== null) throw new ConsensusError('bad_verdict', problem);
  return {
    owner,
    acceptable: verdict.acceptable,
    score: verdict.score,
    reason: verdict.reason,
    sig: verdict.sig,
    pubkey_hex: verdict.pubkey_hex,
  };
}

function verdictProblem(verdict: Verdict, owner: string): string | null {
  const v: Partial<Record<keyof Verdict, unknown>> = verdict;
  if (v.owner !== owner) return `a verdict for ${JSON.stringify(owner)} names another owner`;
  if (typeof v.acceptable !== 'boolean') return 'acceptable must be a boolean';
  if (typeof v.score !== 'number' || !Number.isFinite(v.score)) {
    return 'score must be a finite number';
  }
  if (v.reason !== (v.acceptable ? 'ok' : 'red-line')) {
    return 'reason must be "ok" when acceptable and "red-line" otherwise';
  }
  if (!isNullableString(v.sig) || !isNullableString(v.pubkey_hex)) {
    return 'sig and pubkey_hex must be strings or null';
  }
  return null;
}

/** Whether `value` is a string or null, the shape of `sig` and `pubkey_hex`. */
export function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}
