import { sha256, utf8 } from '@parley/protocol';
import { toHex } from '../hex.js';
import { pyDumps } from '../py-json/dumps.js';
import type { PyValue } from '../py-json/value.js';

/** An option hash: SHA-256 of the option's canonical text, 64 lowercase hex characters. */
export const OPTION_HASH = /^[0-9a-f]{64}$/;

/**
 * SHA-256 (lowercase hex) of one option's canonical text, the same text the transcript hash
 * covers for it (`json.dumps(option, sort_keys=True, ensure_ascii=False)`). A session lists its
 * options by these hashes, so a delegate can fix them without being sent them all at once.
 */
export function hashOption(option: PyValue): string {
  return hashOptionText(pyDumps(option));
}

/** `hashOption` of the option whose canonical text this is, for a caller that has written it. */
export function hashOptionText(canonicalText: string): string {
  return toHex(sha256(utf8(canonicalText)));
}

/**
 * The hash a session binds into every `verdict/0.2` signature: SHA-256 of the canonical list of
 * its options' hashes, in option order. A checker recomputes it from the record's options.
 */
export function hashOptionList(optionHashes: readonly string[]): string {
  return toHex(sha256(utf8(pyDumps([...optionHashes]))));
}
