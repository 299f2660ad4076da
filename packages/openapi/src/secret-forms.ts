/** Base64 and hex forms shorter than this are not looked for: they would match by chance. */
export const MIN_ENCODED_FORM = 8;

/** `%XX`, percent-encoded again any number of times (`%252F`). */
const PERCENT = /%(?:25)*([0-9a-f]{2})/iy;
/** The `uXXXX` of a `\uXXXX` escape, after its backslashes (escaped any number of times). */
const UNICODE_TAIL = /u([0-9a-f]{4})/iy;
/** An HTML character reference: decimal, hex, or the names that stand for a key's punctuation. */
const REFERENCE = /&#(?:x([0-9a-f]{1,6})|([0-9]{1,7}));|&([a-z]{2,6});/iy;
const NAMED: Record<string, string> = {
  quot: '"',
  amp: '&',
  apos: "'",
  lt: '<',
  gt: '>',
  sol: '/',
  bsol: '\\',
  plus: '+',
  equals: '=',
};
const BACKSLASH = 0x5c;

/**
 * Finds secrets in text in every form an upstream could give them back in. The text is read as
 * the bytes it stands for, whatever escapes it: percent-encoding (nested, either case), `\uXXXX`,
 * HTML character references; backslashes are skipped (JSON's `\/`, `\"`, `\\`, nested), letters
 * are folded to lower case, space and `-` read as `+`, `_` as `/` (form encoding, base64url). In
 * that reading it looks for each secret and its base64 (at each of the three byte alignments it
 * can have inside a longer encoding) and hex, read the same way. One pass and a substring search
 * per form: time linear in the text, whatever the text holds.
 */
export class SecretForms {
  readonly #needles: string[];

  constructor(texts: readonly string[]) {
    const needles = new Set<string>();
    for (const text of texts) {
      const raw = folded(Buffer.from(text, 'utf8'));
      if (raw !== '') needles.add(raw);
      for (const form of encodedForms(text)) {
        if (form.length >= MIN_ENCODED_FORM) needles.add(folded(Buffer.from(form, 'latin1')));
      }
    }
    this.#needles = [...needles];
  }

  get empty(): boolean {
    return this.#needles.length === 0;
  }

  /** The `[start, end)` ranges of `text` holding a form of a secret: in order, merged. */
  find(text: string): [number, number][] {
    if (this.empty || text === '') return [];
    const view = readView(text);
    const found: [number, number][] = [];
    for (const needle of this.#needles) {
      for (let at = view.bytes.indexOf(needle); at >= 0; at = view.bytes.indexOf(needle, at + 1)) {
        found.push([view.starts[at] as number, view.ends[at + needle.length - 1] as number]);
      }
    }
    return merged(found);
  }
}

/** The text's base64 as it appears inside any longer base64 holding it, and its hex. */
function encodedForms(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const forms = [bytes.toString('hex')];
  for (let shift = 0; shift < 3; shift++) forms.push(alignedBase64(bytes, shift));
  return forms;
}

/**
 * The base64 characters that carry only the text's bits when it follows `shift` other bytes;
 * the at most two characters at each end that mix in other bits are left out.
 */
function alignedBase64(bytes: Buffer, shift: number): string {
  const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
  return encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
}

/** A byte as the search reads it, or -1 for a backslash, which it skips. */
function fold(byte: number): number {
  if (byte === BACKSLASH) return -1;
  if (byte >= 0x41 && byte <= 0x5a) return byte + 0x20;
  if (byte === 0x20 || byte === 0x2d) return 0x2b; // ' ' and '-' as '+'
  if (byte === 0x5f) return 0x2f; // '_' as '/'
  return byte;
}

function folded(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) {
    const f = fold(byte);
    if (f >= 0) out += String.fromCharCode(f);
  }
  return out;
}

/** The text as folded bytes (one latin1 character each) and where in the text each came from. */
type View = { bytes: string; starts: Int32Array; ends: Int32Array };

function readView(text: string): View {
  let size = 0;
  let codes = new Uint8Array(text.length + 8);
  let starts = new Int32Array(codes.length);
  let ends = new Int32Array(codes.length);
  const emit = (byte: number, start: number, end: number): void => {
    const f = fold(byte);
    if (f < 0) return;
    if (size === codes.length) {
      codes = grown(codes, new Uint8Array(size * 2));
      starts = grown(starts, new Int32Array(size * 2));
      ends = grown(ends, new Int32Array(size * 2));
    }
    codes[size] = f;
    starts[size] = start;
    ends[size] = end;
    size++;
  };
  const emitChar = (char: string, start: number, end: number): void => {
    for (const byte of Buffer.from(char, 'utf8')) emit(byte, start, end);
  };
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const found = code === 0x25 || code === BACKSLASH || code === 0x26 ? escapeAt(text, i) : null;
    if (found !== null) {
      if (typeof found.value === 'number') emit(found.value, i, found.end);
      else if (found.value !== null) emitChar(found.value, i, found.end);
      i = found.end;
    } else if (code < 0x80) {
      emit(code, i, i + 1);
      i++;
    } else {
      const width = (text.codePointAt(i) as number) > 0xffff ? 2 : 1;
      emitChar(text.slice(i, i + width), i, i + width);
      i += width;
    }
  }
  return {
    bytes: Buffer.from(codes.buffer, 0, size).toString('latin1'),
    starts: starts.subarray(0, size),
    ends: ends.subarray(0, size),
  };
}

/**
 * The escape at `at`: a byte (percent-encoding) or a character (`\uXXXX`, a reference), and
 * where it ends; a run of backslashes not before a `u` escape is skipped whole; else null.
 */
function escapeAt(text: string, at: number): { value: number | string | null; end: number } | null {
  const code = text.charCodeAt(at);
  if (code === BACKSLASH) {
    const first = unicodeAt(text, at);
    if (typeof first.value !== 'number') return first;
    const unit = first.value;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = unicodeAt(text, first.end);
      if (typeof low.value === 'number' && low.value >= 0xdc00 && low.value <= 0xdfff) {
        return { value: String.fromCharCode(unit, low.value), end: low.end };
      }
    }
    return { value: String.fromCharCode(unit), end: first.end };
  }
  if (code === 0x25) {
    PERCENT.lastIndex = at;
    const percent = PERCENT.exec(text);
    if (percent === null) return null;
    return { value: Number.parseInt(percent[1] as string, 16), end: PERCENT.lastIndex };
  }
  REFERENCE.lastIndex = at;
  const reference = REFERENCE.exec(text);
  if (reference === null) return null;
  const [, hex, decimal, name] = reference;
  const point =
    hex !== undefined
      ? Number.parseInt(hex, 16)
      : decimal !== undefined
        ? Number(decimal)
        : undefined;
  const value =
    point === undefined
      ? NAMED[(name as string).toLowerCase()]
      : point <= 0x10ffff
        ? String.fromCodePoint(point)
        : undefined;
  return value === undefined ? null : { value, end: REFERENCE.lastIndex };
}

/**
 * At a run of backslashes: the UTF-16 unit of the `uXXXX` after it, or null (nothing to read:
 * backslashes are skipped) with the run's end. Read by hand, so a long run costs its length once.
 */
function unicodeAt(text: string, at: number): { value: number | null; end: number } {
  let end = at;
  while (text.charCodeAt(end) === BACKSLASH) end++;
  if (end === at) return { value: null, end };
  UNICODE_TAIL.lastIndex = end;
  const tail = UNICODE_TAIL.exec(text);
  if (tail === null) return { value: null, end };
  return { value: Number.parseInt(tail[1] as string, 16), end: UNICODE_TAIL.lastIndex };
}

function grown<T extends Uint8Array | Int32Array>(from: T, into: T): T {
  into.set(from);
  return into;
}

function merged(ranges: [number, number][]): [number, number][] {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const range of ranges) {
    const last = out.at(-1);
    if (last !== undefined && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else out.push([...range]);
  }
  return out;
}
