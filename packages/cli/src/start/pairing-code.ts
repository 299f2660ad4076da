import { timingSafeEqual } from 'node:crypto';
import { randomBytes } from '@parley/protocol';

/** Crockford's base32: no I, L, O or U, so a code read off a terminal is typed back right. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 8 characters: 40 bits. */
const CODE_LENGTH = 8;
/** Wrong codes tried before the code is replaced by a new one (printed where `start` runs). */
export const MAX_WRONG_CODES = 5;

/** A fresh code, shown as two groups of four: `K7QP-M2XD`. */
function newCode(): string {
  const bytes = randomBytes(CODE_LENGTH);
  let code = '';
  for (const byte of bytes) code += ALPHABET[byte % 32];
  return code;
}

/** What a person typed, as a code: upper case, without spaces or dashes, O as 0, I and L as 1. */
function normalize(text: string): string {
  return text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

/** The code as printed. */
export function showCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * The one-time code that pairs a page with `parley start`: printed only in the terminal that ran
 * it, so only the person at that terminal can make the local services trust a page's principal.
 * It serves one pairing, then a new one replaces it (`current`); after MAX_WRONG_CODES wrong
 * tries it is replaced too, and `replaced` prints the new one.
 */
export class PairingCode {
  readonly #replaced: (code: string) => void;
  #code = newCode();
  #wrong = 0;

  constructor(replaced: (code: string) => void) {
    this.#replaced = replaced;
  }

  /** The code now in force, as printed. */
  get current(): string {
    return showCode(this.#code);
  }

  /**
   * Whether `typed` is the code in force (compared in constant time). A right code is used up; a
   * wrong one counts towards MAX_WRONG_CODES.
   */
  redeem(typed: string): boolean {
    const given = Buffer.from(normalize(typed));
    const expected = Buffer.from(this.#code);
    const right = given.length === expected.length && timingSafeEqual(given, expected);
    if (right) {
      this.#replace();
      return true;
    }
    this.#wrong++;
    if (this.#wrong >= MAX_WRONG_CODES) {
      this.#replace();
      this.#replaced(this.current);
    }
    return false;
  }

  #replace(): void {
    this.#code = newCode();
    this.#wrong = 0;
  }
}
