import { encodeB64url, randomBytes } from '@parley/protocol';

/** Random ids with a kind prefix: p_ proposals, r_ receipts, h_ handles, s frames. */
export function newId(prefix: string, bytes: number): string {
  return prefix + encodeB64url(randomBytes(bytes));
}

/** 96-bit proposal ids: unguessable, though committing also needs the hash and holder key. */
export const newProposalId = (): string => newId('p_', 12);
export const newReceiptId = (): string => newId('r_', 12);
/** 128-bit handles: an unbound handle (no proof on the request) is a bearer capability. */
export const newHandleId = (): string => newId('h_', 16);
export const newFrameId = (): string => newId('s', 9);
