import { encodeB64url } from './b64url.js';
import { canonicalize } from './canonical.js';
import type { Proposal } from './frames.js';
import { sha256, utf8 } from './keys.js';

/** A proposal as it is hashed: everything except `hash` and `data` (§5.1). */
export type HashedProposal = Omit<Proposal, 'hash' | 'data'> & { hash?: string; data?: unknown };

/**
 * §5.1: b64url(sha256(canonical(proposal without "hash" and "data"))). Throws a RangeError when a
 * hashed field holds a non-integer number (§5.1: numbers inside hashed fields MUST be integers).
 */
export function hashProposal(proposal: HashedProposal): string {
  const { hash: _hash, data: _data, ...hashed } = proposal;
  return encodeB64url(sha256(utf8(canonicalize(hashed))));
}
