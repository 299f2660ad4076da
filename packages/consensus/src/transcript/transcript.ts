import { sha256Pieces } from '@parley/protocol';
import { isNullableString, REASONS, type Reason, type Verdict } from '../decision/verdict.js';
import { ConsensusError } from '../errors.js';
import { toHex } from '../hex.js';
import {
  floatValue,
  isPyObject,
  type PyObject,
  type PyValue,
  pyFloat,
  unhashable,
} from '../py-json/value.js';
import type { PreferenceSheet } from '../sheet/preference-sheet.js';
import { canonicalPieces } from './canonical-text.js';
import { STATUSES, type Status, type TranscriptEntry, type TranscriptResult } from './entry.js';

export { STATUSES, type Status, type TranscriptEntry, type TranscriptResult } from './entry.js';

const VERDICT_KEYS = ['acceptable', 'owner', 'pubkey_hex', 'reason', 'score', 'sig'] as const;

/**
 * The tamper-evident record of a parley: masked verdicts only, never sheets. `hash()` is the
 * SHA-256 of the same text parley-consensus 0.2.1 hashes, so either can check the other's receipt.
 */
export class Transcript {
  readonly entries: readonly TranscriptEntry[];
  /** Null until the parley is finalized. */
  readonly result: TranscriptResult | null;

  constructor(entries: readonly TranscriptEntry[], result: TranscriptResult | null) {
    this.entries = entries;
    this.result = result;
  }

  /** The record as Python's `to_dict()` shapes it, scores typed as floats; keys come sorted. */
  toDict(): PyObject {
    return {
      entries: this.entries.map((e) => ({
        option: e.option,
        verdicts: e.verdicts.map((v) => ({
          acceptable: v.acceptable,
          owner: v.owner,
          pubkey_hex: v.pubkey_hex,
          reason: v.reason,
          score: pyFloat(v.score),
          sig: v.sig,
        })),
      })),
      result:
        this.result === null
          ? null
          : { decision: this.result.decision, status: this.result.status },
    };
  }

  /** The exact text the hash covers: Python's `json.dumps(sort_keys=True, ensure_ascii=False)`. */
  canonicalText(): string {
    return canonicalPieces(this.entries, this.result).join('');
  }

  /** SHA-256 (lowercase hex) of the canonical text: the receipt hash. */
  hash(): string {
    return toHex(sha256Pieces(canonicalPieces(this.entries, this.result)));
  }

  /**
   * An owner replays their own private sheet against the decision, locally: true when every red
   * line holds. A deadlock (null decision) forces nothing on anyone, so it is true.
   */
  verifyNonBetrayal<O>(sheet: PreferenceSheet<O>, decision: O | null): boolean {
    return decision === null || sheet.holds(decision);
  }

  /**
   * Rebuilds a record from its JSON form (read it with `parsePyJson`, not `JSON.parse`, so floats
   * keep their type). The shape is checked strictly: a key the engine never writes would either
   * ride into the hash unseen or be dropped, and both change what the hash means.
   */
  static fromDict(value: PyValue): Transcript {
    const problem = unhashable(value);
    if (problem !== null) fail(`the transcript cannot be hashed: ${problem}`);
    const data = exactObject(value, ['entries', 'result'], 'transcript');
    if (!Array.isArray(data.entries)) fail('transcript.entries must be a list');
    const entries = (data.entries as readonly PyValue[]).map((raw, i) => {
      const path = `transcript.entries[${i}]`;
      const entry = exactObject(raw, ['option', 'verdicts'], path);
      if (!Array.isArray(entry.verdicts)) fail(`${path}.verdicts must be a list`);
      const verdicts = (entry.verdicts as readonly PyValue[]).map((v, j) =>
        readVerdict(v, `${path}.verdicts[${j}]`),
      );
      return { option: entry.option as PyValue, verdicts };
    });
    return new Transcript(entries, readResult(data.result as PyValue));
  }
}

function fail(message: string): never {
  throw new ConsensusError('bad_transcript', message);
}

function exactObject(value: PyValue, keys: readonly string[], path: string): PyObject {
  if (!isPyObject(value)) fail(`${path} must be an object`);
  const have = Object.keys(value).sort();
  const want = [...keys].sort();
  if (have.length !== want.length || have.some((k, i) => k !== want[i])) {
    fail(`${path} must have exactly the keys ${want.join(', ')}`);
  }
  return value;
}

function readVerdict(value: PyValue, path: string): Verdict {
  const v = exactObject(value, VERDICT_KEYS, path);
  const { owner, acceptable, score, reason, sig, pubkey_hex } = v;
  if (typeof owner !== 'string') fail(`${path}.owner must be a string`);
  if (typeof acceptable !== 'boolean') fail(`${path}.acceptable must be a boolean`);
  const floatScore = floatValue(score);
  if (floatScore === null) {
    fail(`${path}.score must be a float such as 0.5 or 1.0 (read JSON with parsePyJson)`);
  }
  if (!REASONS.includes(reason as Reason)) fail(`${path}.reason must be "ok" or "red-line"`);
  if (!isNullableString(sig)) fail(`${path}.sig must be a string or null`);
  if (!isNullableString(pubkey_hex)) fail(`${path}.pubkey_hex must be a string or null`);
  return {
    owner,
    acceptable,
    score: floatScore,
    reason: reason as Reason,
    sig,
    pubkey_hex,
  };
}

function readResult(value: PyValue): TranscriptResult | null {
  if (value === null) return null;
  const r = exactObject(value, ['decision', 'status'], 'transcript.result');
  if (!STATUSES.includes(r.status as Status)) {
    fail('transcript.result.status must be "agreed" or "deadlock"');
  }
  return { status: r.status as Status, decision: r.decision as PyValue };
}
