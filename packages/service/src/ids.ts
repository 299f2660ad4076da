import { encodeB64url, randomBytes } from '@parley/protocol';

/** Random ids with a kind prefix: p_ proposals, pv_ view-only proposals, r_ receipts, h_ handles. */
export function newId(prefix: string, bytes: number): string {
  return prefix + encodeB64url(randomBytes(bytes));
}

/** 96-bit proposal ids: unguessable, though committing also needs the hash and holder key. */
export const newProposalId = (): string => newId('p_', 12);
/**
 * §4.4: the prefix of proposals from an INTENT no trusted grant authorized. They can be viewed
 * but never committed, so they are never stored; the prefix lets COMMIT say so.
 */
export const VIEW_ONLY_PREFIX = 'pv_';
export const newViewOnlyProposalId = (): string => newId(VIEW_ONLY_PREFIX, 12);
export const newReceiptId = (): string => newId('r_', 12);
/** 128-bit handles: an unbound handle (no proof on the request) is a bearer capability. */
export const newHandleId = (): string => newId('h_', 16);
/** A random per-process prefix: frame ids need only be unique among this sender's frames (§2.1). */
const FRAME_PREFIX = newId('s', 6);
let frames = 0;
/** Reply frame ids: the process prefix and a counter, with no random draw per reply. */
export const newFrameId = (): string => `${FRAME_PREFIX}.${(frames++).toString(36)}`;
