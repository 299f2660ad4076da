import type { More } from '../frames.js';
import type { JsonValue } from '../json.js';

/** §8: the list roots, whose items may only be dropped whole. */
export const LIST_ROOTS = ['proposals', 'capabilities'] as const;
export type ListRoot = (typeof LIST_ROOTS)[number];

/**
 * The elided items of an array, unfitted. `listRoot` marks items of a list root (§8): whole
 * proposals or capability entries, which an EXPAND slice must again only drop whole.
 */
export interface ItemsRemainder {
  items: JsonValue[];
  listRoot?: ListRoot;
}

/** The elided tail of a string. */
export interface TextRemainder {
  text: string;
}

/** §8: what EXPAND of a handle returns, in full; the caller stores it under the handle. */
export type Remainder = ItemsRemainder | TextRemainder;

/** One elided array or string: its More, and the remainder to store under its handle. */
export interface Elision {
  handle: string;
  path: string;
  more: More;
  remainder: Remainder;
}

/** Returns a fresh EXPAND handle for the value elided at `path` (§8). */
export type IssueHandle = (path: string) => string;
