import { getOwn, type PyValue, pyFloat } from '../py-json/value.js';
import { readObject } from './wire.js';

/** A verdict's fields as a delegate sent them, not yet checked; absent ones are undefined. */
export interface VerdictFields {
  readonly owner: PyValue | undefined;
  readonly acceptable: PyValue | undefined;
  readonly score: PyValue | undefined;
  readonly reason: PyValue | undefined;
  readonly sig: PyValue | undefined;
  readonly pubkey_hex: PyValue | undefined;
}

/**
 * A verdict exactly as `verdictText` writes one for an owner name of printable ASCII: the fields
 * in the reference's order, a float score, and lowercase hex for the signature and key. A body of
 * this form is read field by field; any other goes through the full reader.
 */
const WRITTEN =
  /^\{"owner": "([ !#-[\]-~]*)", "acceptable": (true|false), "score": ((?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?), "reason": "(ok|red-line)"(?:, "sig": "([0-9a-f]*)", "pubkey_hex": "([0-9a-f]*)")?\}$/;

/**
 * The fields of a verdict's text, read as Python's `json.loads` reads them (a float keeps its
 * type); null when the text is not a JSON object. A verdict in the form delegates write is read
 * without the general reader, to the same values (a test holds the two together).
 */
export function verdictFields(text: string): VerdictFields | null {
  return writtenFields(text) ?? generalFields(text);
}

/** The fields of a verdict in the form delegates write; null for any other text. */
export function writtenFields(text: string): VerdictFields | null {
  const m = WRITTEN.exec(text);
  // Python reads a number with a fraction or an exponent as a float; an int is no score.
  if (m === null || (m[4] === undefined && m[5] === undefined)) return null;
  const score = Number(m[3]);
  // Past a double's range Python reads inf: left to the full reader, which refuses it.
  if (!Number.isFinite(score)) return null;
  return {
    owner: m[1] as string,
    acceptable: m[2] === 'true',
    score: pyFloat(score),
    reason: m[6] as string,
    sig: m[7],
    pubkey_hex: m[8],
  };
}

/** The fields as the full reader finds them. */
export function generalFields(text: string): VerdictFields | null {
  const d = readObject(text);
  if (d === null) return null;
  return {
    owner: getOwn(d, 'owner'),
    acceptable: getOwn(d, 'acceptable'),
    score: getOwn(d, 'score'),
    reason: getOwn(d, 'reason'),
    sig: getOwn(d, 'sig'),
    pubkey_hex: getOwn(d, 'pubkey_hex'),
  };
}
