import { encodeB64url, randomBytes } from '@parley/protocol';

/** Random ids with a kind prefix: p_ proposals, pv_ view-only proposals, r_ receipts, h_ handles. */
export function newId(prefix: string, bytes: number): string {
  return prefix + encodeB64url(randomBytes(bytes));
}

/** The base64url characters in ascending byte order: fixed-width numbers in them sort as numbers. */
const SORTED_DIGITS = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
/** Milliseconds in seven sorted digits (42 bits): until the year 2109. */
export const TIME_DIGITS = 7;

/** `ms` (a non-negative integer below 2^42) as TIME_DIGITS sorted digits. */
export function sortedTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < TIME_DIGITS; i++) {
    out = (SORTED_DIGITS[rest % 64] as string) + out;
    rest = Math.floor(rest / 64);
  }
  return out;
}

/**
 * A random id that sorts by the time it was made: the prefix, the wall clock in milliseconds
 * (sortedTime), then `bytes` random bytes. Ids kept as database keys are written in the order
 * they are made, so each index insert lands on the page the last one did instead of a random
 * page of its own: fewer distinct pages per write-ahead log checkpoint (bench/RESULTS.md). The
 * time says no more than the `at` a receipt carries anyway; the random part keeps it unguessable.
 */
export function newSortableId(prefix: string, bytes: number): string {
  return prefix + sortedTime(Date.now()) + encodeB64url(randomBytes(bytes));
}

/** Proposal ids with 72 random bits: unguessable, though committing also needs the hash and holder key. */
export const newProposalId = (): string => newSortableId('p_', 9);
/**
 * §4.4: the prefix of proposals from an INTENT no trusted grant authorized. They can be viewed
 * but never committed, so they are never stored; the prefix lets COMMIT say so.
 */
export const VIEW_ONLY_PREFIX = 'pv_';
export const newViewOnlyProposalId = (): string => newId(VIEW_ONLY_PREFIX, 12);
export const newReceiptId = (): string => newSortableId('r_', 9);
/** 128-bit handles: an unbound handle (no proof on the request) is a bearer capability. */
export const newHandleId = (): string => newId('h_', 16);
/** A random per-process prefix: frame ids need only be unique among this sender's frames (§2.1). */
const FRAME_PREFIX = newId('s', 6);
let frames = 0;
/** Reply frame ids: the process prefix and a counter, with no random draw per reply. */
export const newFrameId = (): string => `${FRAME_PREFIX}.${(frames++).toString(36)}`;
