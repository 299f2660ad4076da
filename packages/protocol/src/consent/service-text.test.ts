import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeIdentifier,
  escapeServiceText,
  isPlainIdentifier,
  MAX_COMBINING_MARKS,
  MAX_SHOWN_CHARACTERS,
} from './service-text.js';

const shown = (text: string): string => escapeServiceText(text);
const code = (char: string): string => `\\u{${(char.codePointAt(0) as number).toString(16)}}`;

describe('§6.6 service text shown to a person: nothing hides, reorders, repaints or imitates', () => {
  it.each([
    [
      'C0 controls: escape sequences, carriage return, newline, NUL',
      ['\u001b', '\r', '\n', '\u0000', '\u0007'],
    ],
    ['DEL and C1 controls', ['\u007f', '\u0085', '\u009b']],
    ['bidi embeddings and overrides', ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e']],
    ['bidi isolates', ['\u2066', '\u2067', '\u2068', '\u2069']],
    ['bidi marks', ['\u200e', '\u200f', '\u061c']],
    ['zero-width characters', ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff']],
    [
      'other invisible format characters',
      ['\u00ad', '\u2061', '\u2064', '\u206a', '\u180e', '\ufff9'],
    ],
    ['tag characters', ['\u{e0001}', '\u{e0041}', '\u{e007f}']],
    ['line and paragraph separators', ['\u2028', '\u2029']],
    ['private use, unassigned and lone surrogates', ['\ue000', '\u{10fffd}', '\u0378', '\ud800']],
    ['letters that draw nothing', ['\u115f', '\u3164', '\uffa0', '\u2800']],
  ])('escapes %s', (_, chars) => {
    for (const char of chars) {
      expect(shown(`a${char}b`)).toBe(`a${code(char)}b`);
    }
  });

  it('keeps ordinary text of every script, symbols and emoji as written', () => {
    for (const text of [
      'Order 1 item · 104.98 USD → ✓',
      'card ••4242 — café, naïve, Zürich',
      'Привет мир',
      'Γειά σου',
      '東京で会議 (会議室 3)',
      'مرحبا بالعالم',
      'ผู้ใช้',
      'Tiếng Việt',
      '❤️ 👍🏽',
    ]) {
      expect(shown(text)).toBe(text);
    }
  });

  it('keeps a newline only when asked, and then only the newline', () => {
    expect(escapeServiceText('a\nb\rc', { newlines: true })).toBe('a\nb\\u{d}c');
  });

  it('variation selectors: one after a character stays, a run or a stray one is escaped', () => {
    expect(shown('❤\ufe0f')).toBe('❤\ufe0f');
    expect(shown('x\ufe0f\ufe0f\u{e0100}')).toBe('x\ufe0f\\u{fe0f}\\u{e0100}');
    expect(shown('\ufe0fx')).toBe('\\u{fe0f}x');
    expect(shown('\u200b\ufe0f')).toBe('\\u{200b}\\u{fe0f}');
  });

  it(`combining marks: up to ${MAX_COMBINING_MARKS} on one character stay, more are escaped`, () => {
    const kept = `e${'\u0301'.repeat(MAX_COMBINING_MARKS)}`;
    expect(shown(kept)).toBe(kept);
    expect(shown(`${kept}\u0301\u0302`)).toBe(`${kept}\\u{301}\\u{302}`);
    expect(shown('\u0301a')).toBe('\\u{301}a');
  });

  it('confusables: lookalike letters inside a Latin word are escaped, whole words of one script are not', () => {
    // Cyrillic а (U+0430) and о (U+043E), Greek ο (U+03BF), a mathematical bold P (U+1D40F).
    expect(shown('Pаy 10 USD')).toBe('P\\u{430}y 10 USD');
    expect(shown('gοοgle.com')).toBe('g\\u{3bf}\\u{3bf}gle.com');
    expect(shown('pаypаl')).toBe('p\\u{430}yp\\u{430}l');
    expect(shown('\u{1d40f}ay')).toBe('\\u{1d40f}ay');
    expect(shown('оплата')).toBe('оплата');
    // Digits of another script among ASCII digits: ٣ (U+0663), fullwidth ９ (U+FF19).
    expect(shown('10٣ USD')).toBe('10\\u{663} USD');
    expect(shown('1９9')).toBe('1\\u{ff19}9');
    expect(shown('١٢٣')).toBe('١٢٣');
  });

  it(`shows at most ${MAX_SHOWN_CHARACTERS} characters and counts the rest`, () => {
    const long = 'x'.repeat(MAX_SHOWN_CHARACTERS + 5);
    expect(shown(long)).toBe(`${'x'.repeat(MAX_SHOWN_CHARACTERS)}… (5 more characters not shown)`);
  });

  it('property: the result never holds a control, bidi, format or separator character', () => {
    const dangerous = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/u;
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expect(dangerous.test(escapeServiceText(text))).toBe(false);
      }),
    );
  });
});

describe('§6.6 identifiers a person compares', () => {
  it('shows every character outside printable ASCII as an escape', () => {
    expect(escapeIdentifier('cal.example.com')).toBe('cal.example.com');
    expect(isPlainIdentifier('cal.example.com')).toBe(true);
    expect(escapeIdentifier('pаypal.com')).toBe('p\\u{430}ypal.com');
    expect(isPlainIdentifier('pаypal.com')).toBe(false);
    expect(escapeIdentifier('shop\u202e.example')).toBe('shop\\u{202e}.example');
    expect(escapeIdentifier('café')).toBe('caf\\u{e9}');
  });
});
