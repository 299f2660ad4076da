import { estimateTokens } from '../budget/estimate-tokens.js';
import { renderString } from './scalar.js';

/**
 * Remembered §8 estimates for one fitting run: of lean blocks, by node and situation (nodes are
 * never mutated while a run holds them, so identity is a safe key), and of long string values,
 * by value.
 */
export class LensMemo {
  readonly blocks = new WeakMap<object, Map<string, number>>();
  readonly strings = new Map<string, number>();
  /** Effect lists found well formed (reply-shape.ts). */
  readonly checked = new WeakSet<object>();
}

/** Strings at least this long have their estimate remembered by value (shorter ones are cheap). */
const REMEMBERED_STRING = 64;

const INDENT_UNIT = '  '; // §9.1: two spaces per level
const indents: string[] = [''];

function indentation(level: number): string {
  for (let i = indents.length; i <= level; i++) indents.push(INDENT_UNIT.repeat(i));
  return indents[level] as string;
}

/**
 * Keys of the one-letter roles, built once: a key built anew is hashed anew on every lookup, and
 * fitting looks up every row of an array after each halving. Index: indent × 2 + dash.
 */
const BUILT_KEYS = new Map<string, string[]>();

/** The situation a block was measured in; the role goes last, as it may hold any text. */
function memoKey(role: string, indent: number, dash: boolean): string {
  if (role.length !== 1) return `${indent}${dash ? '-' : ''}:${role}`;
  let keys = BUILT_KEYS.get(role);
  if (keys === undefined) {
    keys = [];
    BUILT_KEYS.set(role, keys);
  }
  const at = indent * 2 + (dash ? 1 : 0);
  keys[at] ??= `${indent}${dash ? '-' : ''}:${role}`;
  return keys[at];
}

function leadingSpaces(text: string): number {
  let i = 0;
  while (text.charCodeAt(i) === 0x20) i++;
  return i;
}

/**
 * Collects Lens lines. In text mode it keeps the lines; in measure mode it keeps only
 * est(text) (§8) of what the text would be, so budget fitting can size a reply without
 * building it, and can reuse the estimate of a block it has already measured.
 *
 * Measuring relies on est being additive over lines: no match of the §8 pattern spans a
 * newline except `\n {2,}`, which starts at one. So est(A + "\n" + B) = est(A) + est("\n" + B),
 * and est("\n" + line) = est(line) + 1 when the line starts with two or more spaces.
 */
export class LensWriter {
  readonly #lines: string[] | undefined;
  readonly #memo: LensMemo | undefined;
  #est = 0;
  #first = true;
  #dash = false;

  private constructor(lines: string[] | undefined, memo: LensMemo | undefined) {
    this.#lines = lines;
    this.#memo = memo;
  }

  /** The memo of a measuring writer, if it has one. */
  get memo(): LensMemo | undefined {
    return this.#memo;
  }

  /** A writer that builds the text. */
  static text(): LensWriter {
    return new LensWriter([], undefined);
  }

  /** A writer that only estimates (§8), reusing and filling `memo` when given. */
  static measure(memo?: LensMemo): LensWriter {
    return new LensWriter(undefined, memo);
  }

  /** Marks the next line as the first line of a list item: `- ` replaces its last indent level. */
  dash(): void {
    this.#dash = true;
  }

  /** Writes one line of `content` at `indent` levels. */
  line(indent: number, content: string): void {
    if (this.#lines !== undefined) {
      this.#lines.push(
        this.#dash ? `${indentation(indent - 1)}- ${content}` : indentation(indent) + content,
      );
      this.#first = false;
      this.#dash = false;
    } else {
      this.#count(indent, content, estimateTokens(content));
    }
  }

  /** Writes `{head}: {value}` with the string value rendered per §9.1. */
  pair(indent: number, head: string, value: string): void {
    const memo = this.#memo;
    if (this.#lines !== undefined || memo === undefined || value.length < REMEMBERED_STRING) {
      this.line(indent, `${head}: ${renderString(value)}`);
      return;
    }
    let tail = memo.strings.get(value);
    if (tail === undefined) {
      tail = estimateTokens(renderString(value));
      memo.strings.set(value, tail);
    }
    // No match of the §8 pattern crosses a space, so the line's estimate is the sum of its parts.
    this.#count(indent, `${head}: `, estimateTokens(head) + 1 + tail);
  }

  /** Measure mode: adds a line starting with `content` whose own estimate is `cost`. */
  #count(indent: number, content: string, cost: number): void {
    const dash = this.#dash;
    const lead = dash ? 2 * (indent - 1) : 2 * indent + leadingSpaces(content);
    let total = cost;
    if (dash) total += 1; // the `-`; the space after it never counts
    if (!this.#first && lead >= 2) total += 1; // the `\n {2,}` before the line
    this.#est += total;
    this.#first = false;
    this.#dash = false;
  }

  /**
   * Measure mode: if the block `role` of `node` at `indent` was measured before in the same
   * situation, adds its estimate and returns true, so the caller skips writing it.
   */
  reuse(node: object, role: string, indent: number): boolean {
    if (this.#memo === undefined || this.#first) return false;
    const known = this.#memo.blocks.get(node)?.get(this.#key(role, indent));
    if (known === undefined) return false;
    this.#est += known;
    this.#first = false;
    this.#dash = false;
    return true;
  }

  /** Opens a block for `keep`; returns a ticket (or -1 when nothing will be remembered). */
  open(): number {
    if (this.#memo === undefined || this.#first) return -1;
    return this.#est * 2 + (this.#dash ? 1 : 0);
  }

  /** Remembers the estimate of the block written since `open` returned `ticket`. */
  keep(node: object, role: string, indent: number, ticket: number): void {
    if (this.#memo === undefined || ticket < 0) return;
    const dash = ticket % 2 === 1;
    const start = (ticket - (dash ? 1 : 0)) / 2;
    let byRole = this.#memo.blocks.get(node);
    if (byRole === undefined) {
      byRole = new Map();
      this.#memo.blocks.set(node, byRole);
    }
    byRole.set(memoKey(role, indent, dash), this.#est - start);
  }

  #key(role: string, indent: number): string {
    return memoKey(role, indent, this.#dash);
  }

  /** The text written so far (text mode). */
  text(): string {
    return this.#lines === undefined ? '' : this.#lines.join('\n');
  }

  /** est(text) of what was written (measure mode). */
  estimate(): number {
    return this.#est;
  }
}
