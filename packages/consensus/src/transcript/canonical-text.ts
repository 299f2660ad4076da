import type { Verdict } from '../decision/verdict.js';
import { pyDumpsNested, quotePy } from '../py-json/dumps.js';
import { formatPyFloat } from '../py-json/float-repr.js';
import type { PyValue } from '../py-json/value.js';
import type { TranscriptEntry, TranscriptResult } from './entry.js';

/**
 * A transcript's canonical text, `pyDumps(transcript.toDict())`, written straight from the
 * entries in pieces: one piece per entry, plus the head and the tail. Hashing the pieces one
 * after another (`sha256Pieces`) gives the receipt hash without building the 1 MB text whole, and
 * without the `to_dict` view: the keys of every level are fixed and written here in sorted order.
 * Options and the decision are any JSON value and go through `pyDumps`'s own writer; a verdict
 * field of an unexpected type at run time (the types do not bind JavaScript callers) does too,
 * so the text is the generic writer's in every case (transcript.test.ts checks both agree).
 */
export function canonicalPieces(
  entries: readonly TranscriptEntry[],
  result: TranscriptResult | null,
): string[] {
  const pieces: string[] = ['{"entries": ['];
  // Owners repeat once per entry: each is quoted (and checked for lone surrogates) once.
  const owners = new Map<string, string>();
  const verdicts: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as TranscriptEntry;
    verdicts.length = 0;
    for (const verdict of entry.verdicts) verdicts.push(verdictText(verdict, owners));
    // Depth 3: the option sits in the record, its entries list and its entry.
    pieces.push(
      `${i === 0 ? '' : ', '}{"option": ${pyDumpsNested(entry.option, 3)}, "verdicts": [${verdicts.join(', ')}]}`,
    );
  }
  const resultText =
    result === null
      ? 'null'
      : `{"decision": ${pyDumpsNested(result.decision, 2)}, "status": ${field(result.status, 2)}}`;
  pieces.push(`], "result": ${resultText}}`);
  return pieces;
}

/** Depth of a verdict's fields: the record, entries, the entry, its verdicts, the verdict. */
const VERDICT_DEPTH = 5;

/** `{"acceptable": …, "owner": …, "pubkey_hex": …, "reason": …, "score": …, "sig": …}` */
function verdictText(v: Verdict, owners: Map<string, string>): string {
  const acceptable =
    v.acceptable === true ? 'true' : v.acceptable === false ? 'false' : field(v.acceptable);
  let owner = owners.get(v.owner);
  if (owner === undefined) {
    owner = field(v.owner);
    owners.set(v.owner, owner);
  }
  // `to_dict` writes the score as a Python float, whatever its value.
  const score = typeof v.score === 'number' ? formatPyFloat(v.score) : field(v.score);
  return `{"acceptable": ${acceptable}, "owner": ${owner}, "pubkey_hex": ${nullableText(v.pubkey_hex)}, "reason": ${reasonText(v.reason)}, "score": ${score}, "sig": ${nullableText(v.sig)}}`;
}

function reasonText(reason: string): string {
  return reason === 'ok' ? '"ok"' : reason === 'red-line' ? '"red-line"' : field(reason);
}

function nullableText(value: string | null): string {
  if (value === null) return 'null';
  return typeof value === 'string' ? quotePy(value) : field(value);
}

/** Any field through the generic writer (a string is quoted; anything else written as it is). */
function field(value: unknown, depth = VERDICT_DEPTH): string {
  return pyDumpsNested(value as PyValue, depth);
}
