import { encodeB64url, randomBytes } from '@parley/protocol';

/**
 * Random ids with a kind prefix: p_ proposals, pv_ view-only proposals, r_ receipts, h_ handles.
 */
export function newId(prefix: string, bytes: number): string {
  return prefix + encodeB64url(randomBytes(bytes));
}

/**
 * The base64url characters in ascending byte order: fixed-width numbers in them sort as numbers.
 */
const SORTED_DIGITS = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
/** The clock's step in sortable ids: 1/16 s. */
export const TICK_MS = 62.5;
/** Ticks in six sorted digits (36 bits): 136 years from 1970, until 2106. */
export const TIME_DIGITS = 6;

/** `ticks` (a non-negative integer below 2^36) as TIME_DIGITS sorted digits. */
export function sortedTime(ticks: number): string {
  let out = '';
  let rest = ticks;
  for (let i = 0; i < TIME_DIGITS; i++) {
    out = (SORTED_DIGITS[rest % 64] as string) + out;
    rest = Math.floor(rest / 64);
  }
  return out;
}

/**
 * A random id that sorts by the time it was made: the prefix, the wall clock in sixteenths of a
 * second (sortedTime), then `bytes` random bytes. Ids kept as database keys are then written in
 * about the order they are made, so an index insert lands on one of the last few pages instead
 * of a random page of its own: fewer distinct pages per write-ahead log checkpoint
 * (bench/RESULTS.md). The time says no more than the `at` a receipt carries anyway. Sixteenths
 * keep the id short: a model pays for every character of an id it reads, and random characters
 * cost about 0.7 tokens each (o200k).
 */
export function newSortableId(prefix: string, bytes: number): string {
  return prefix + sortedTime(Math.floor(Date.now() / TICK_MS)) + encodeB64url(randomBytes(bytes));
}

/**
 * Random bits of proposal and receipt ids: 300 ids in one tick (4,800 a second) collide with odds
 * below 1 in 10^12, and a collision fails safe (a replaced proposal no longer matches its hash,
 * §4.4; a receipt id is a unique key, so the commit fails and is retried). Guessing an id gains
 * nothing: committing also needs the hash and the holder's key, undoing the principal's grant.
 * 18 characters, as the random ids before, and fewer tokens (12.0 against 12.4, o200k).
 */
const ID_RANDOM_BYTES = 7;

/** The prefix of every stored (committable) proposal's id. */
export const PROPOSAL_PREFIX = 'p_';
/** The prefix of every receipt's id. */
export const RECEIPT_PREFIX = 'r_';

export const newProposalId = (): string => newSortableId(PROPOSAL_PREFIX, ID_RANDOM_BYTES);
/**
 * §4.4: the prefix of proposals from an INTENT no trusted grant authorized. They can be viewed
 * but never committed, so they are never stored; the prefix lets COMMIT say so.
 */
export const VIEW_ONLY_PREFIX = 'pv_';
export const newViewOnlyProposalId = (): string => newId(VIEW_ONLY_PREFIX, 12);
/** A reversal's receipt id (§4.5): random, as a proposal's id. */
export const newReceiptId = (): string => newSortableId(RECEIPT_PREFIX, ID_RANDOM_BYTES);
/**
 * A commit's receipt id: its proposal's id under the receipt prefix. A proposal commits at most
 * once (§4.4), so the id is as unique as the proposal's, and it says nothing the receipt does not:
 * a receipt names its proposal. A store can then find a receipt by its proposal's key, without an
 * index of receipt ids to write on every COMMIT (sqlite-schema.ts, version 7), whose statements
 * derive it the same way ('r_' || substr(proposal_id, 3)).
 */
export function commitReceiptId(proposalId: string): string {
  // Every id this service makes has the prefix. Any other id (a test's, an import's) keeps all
  // its characters after a prefix no derived id starts with, so no two proposals share one.
  return proposalId.startsWith(PROPOSAL_PREFIX)
    ? RECEIPT_PREFIX + proposalId.slice(PROPOSAL_PREFIX.length)
    : `rx_${proposalId}`;
}
/** 128-bit handles: an unbound handle (no proof on the request) is a bearer capability. */
export const newHandleId = (): string => newId('h_', 16);
/** A random per-process prefix: frame ids need only be unique among this sender's frames (§2.1). */
const FRAME_PREFIX = newId('s', 6);
let frames = 0;
/** Reply frame ids: the process prefix and a counter, with no random draw per reply. */
export const newFrameId = (): string => `${FRAME_PREFIX}.${(frames++).toString(36)}`;
