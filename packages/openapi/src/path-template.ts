import { type JsonObject, type JsonValue, ParleyError } from '@parley/protocol';
import { quoteInput } from '@parley/service';

const PARAM = /\{([^}]+)\}/g;
/** Percent-escapes (runs of `%XX`, and IIS's `%uXXXX`), which an upstream may decode. */
const ESCAPES = /(?:%[0-9a-f]{2})+|%u[0-9a-f]{4}/gi;
const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** Decodings looked through; escapes nested deeper are refused, not decoded without end. */
const MAX_DECODINGS = 4;

/**
 * An operation's path with its path params filled in, OpenAPI `simple` style (lists joined by
 * commas, each part percent-encoded). A value that could make the request reach another path is
 * refused with `invalid_params` rather than encoded: a segment that is empty or only dots, or a
 * value with a slash or backslash, in any form an upstream may decode (`%2e`, `%252e`, `%u002e`,
 * an overlong UTF-8 dot, `．`). Encoding cannot make such a value safe, because URL parsers
 * resolve `%2e%2e` as `..` (WHATWG URL) and servers and proxies decode `%2F`, `%5C` and
 * escapes of escapes before routing; the operation's path must be the one requested.
 */
export function fillPath(template: string, values: JsonObject): string {
  return template
    .split('/')
    .map((segment) => fillSegment(segment, values))
    .join('/');
}

function fillSegment(segment: string, values: JsonObject): string {
  const names = [...segment.matchAll(PARAM)].map((m) => m[1] as string);
  if (names.length === 0) return segment;
  const parts = (name: string): string[] => partsOf(values[name] ?? '');
  for (const name of names) {
    const problem = parts(name)
      .map(slashIn)
      .find((p) => p !== undefined);
    if (problem !== undefined) throw refusal([name], values, problem);
  }
  const problem = dotSegmentIn(segment.replace(PARAM, (_, name: string) => parts(name).join(',')));
  if (problem !== undefined) throw refusal(names, values, problem);
  return segment.replace(PARAM, (_, name: string) => parts(name).map(encodeURIComponent).join(','));
}

/** The texts of a value's parts in the path: a list's items, or the value itself. */
function partsOf(value: JsonValue): string[] {
  return Array.isArray(value) ? value.map(scalarText) : [scalarText(value)];
}

/** Whether the text holds a slash or backslash in some decoded form. */
function slashIn(text: string): Problem | undefined {
  const forms = decodedForms(text);
  if (forms === undefined) return 'escapes';
  return forms.some((form) => /[/\\]/.test(form)) ? 'slash' : undefined;
}

/**
 * Why the segment, in some decoded form, resolves to nothing or to a dot segment, or undefined:
 * empty or only dots and spaces (Windows servers trim trailing dots and spaces), before a `;`
 * (Tomcat's path parameters), a NUL, a `?` or a `#` that an upstream decoding it would see.
 */
function dotSegmentIn(text: string): Problem | undefined {
  const forms = decodedForms(text);
  if (forms === undefined) return 'escapes';
  for (const form of forms) {
    const head = form.split(/[;\0?#]/)[0] ?? '';
    if (/^[.\s]*$/.test(head)) {
      return head.trim() === '' ? 'empty' : 'dot';
    }
  }
  return undefined;
}

/**
 * The text, each decoding of it until nothing changes, and each of those NFKC-normalised (which
 * turns `．` into `.`); undefined when an escape decodes to bytes that are not UTF-8 (overlong
 * forms of `.` and `/` among them) or escapes are nested more than MAX_DECODINGS deep.
 */
function decodedForms(text: string): string[] | undefined {
  const forms = [text];
  for (let round = 0; ; round++) {
    const next = percentDecoded(forms.at(-1) as string);
    if (next === undefined) return undefined;
    if (next === forms.at(-1)) break;
    if (round === MAX_DECODINGS) return undefined;
    forms.push(next);
  }
  return forms.flatMap((form) => [form, form.normalize('NFKC')]);
}

function percentDecoded(text: string): string | undefined {
  let valid = true;
  const out = text.replace(ESCAPES, (run) => {
    if (run[1] === 'u' || run[1] === 'U')
      return String.fromCharCode(Number.parseInt(run.slice(2), 16));
    try {
      return UTF8.decode(Buffer.from(run.replaceAll('%', ''), 'hex'));
    } catch {
      valid = false;
      return run;
    }
  });
  return valid ? out : undefined;
}

/** §7 invalid_params naming the params, their values (cut short) and what is wrong. */
function refusal(names: string[], values: JsonObject, problem: Problem): ParleyError {
  const shown = names.map((name) => quoteInput(values[name] ?? ''));
  const one = names.length === 1;
  const subject = `the path parameter${one ? '' : 's'} ${names.join(' and ')} (${shown.join(', ')})`;
  const [singular, plural, what] = PROBLEMS[problem];
  return new ParleyError('invalid_params', `${subject} ${one ? singular : plural} ${what}`);
}

type Problem = 'slash' | 'dot' | 'empty' | 'escapes';
const CHANGES = 'which would change which path is requested';
const PROBLEMS: Record<Problem, [string, string, string]> = {
  slash: ['holds', 'hold', `a slash or backslash (once decoded), ${CHANGES}`],
  dot: ['makes', 'make', `a dot segment (once decoded), ${CHANGES}`],
  empty: ['makes', 'make', `an empty path segment, ${CHANGES}`],
  escapes: [
    'has',
    'have',
    `percent-escapes that are not UTF-8 or are nested over ${MAX_DECODINGS} deep, which an upstream may decode to a dot or a slash`,
  ],
};

export function scalarText(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
