import { describe, expect, it } from 'vitest';
import { keyForms, revealed } from '../test/key-forms.js';
import { REDACTED, Redactor } from './credentials.js';

/** A key with every character a JSON, URL or base64 encoder treats specially: / + = " \ */
const KEY = 'sk_live_4eC/39+Hq=LyT"jW\\zdp7dcQ8';
const redactor = new Redactor([KEY]);

describe('a credential in every form it can be echoed in (issue 21)', () => {
  it.each(Object.entries(keyForms(KEY)))('%s: hidden whole, the text around it kept', (_, form) => {
    const out = redactor.text(`before ${form} after`);
    expect(revealed(out, KEY)).toBeUndefined();
    expect(out.startsWith('before ')).toBe(true);
    expect(out.endsWith(' after')).toBe(true);
    expect(out).toContain(REDACTED);
  });

  it('escaped forms are hidden exactly, from their first escape to their last', () => {
    for (const name of [
      'raw',
      'percent',
      'percentTwice',
      'json',
      'jsonSlashes',
      'unicode',
      'html',
    ]) {
      const form = keyForms(KEY)[name] as string;
      expect(redactor.text(`<${form}>`), name).toBe(`<${REDACTED}>`);
    }
  });

  it('base64 and base64url inside a longer encoding, at each alignment, and nested escapes', () => {
    for (let shift = 0; shift < 6; shift++) {
      const value = `${'x'.repeat(shift)}{"key":"${KEY}"}`;
      for (const encoding of ['base64', 'base64url', 'hex'] as const) {
        const text = Buffer.from(value).toString(encoding);
        expect(revealed(redactor.text(text), KEY), `${encoding} ${shift}`).toBeUndefined();
      }
    }
    const nested = JSON.stringify(JSON.stringify({ url: `/a?k=${encodeURIComponent(KEY)}` }));
    expect(revealed(redactor.text(nested), KEY)).toBeUndefined();
  });

  it('offsets hold around multi-byte text; a key with a non-ASCII character in its escapes', () => {
    expect(redactor.text(`ünï ${KEY} ✓ 😀 ${KEY}`)).toBe(`ünï ${REDACTED} ✓ 😀 ${REDACTED}`);
    const wide = new Redactor(['clé-😀-secrète']);
    for (const form of [
      'clé-😀-secrète',
      encodeURIComponent('clé-😀-secrète'),
      JSON.stringify('clé-😀-secrète').replace(/[^\x20-\x7e]/gu, (c) =>
        c
          .split('')
          .map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`)
          .join(''),
      ),
      'CLÉ-😀-SECRÈTE'.toLowerCase(),
    ]) {
      expect(wide.text(`(${form})`), form).toMatch(/^\("?\*\*\*"?\)$/);
    }
  });

  it('text that only resembles the key is left as it is', () => {
    const near = ['sk_live_4eC/39+Hq=LyT"jW', KEY.slice(1), 'c2tfbGl2ZV80ZUMv', '%%25%u\\\\\\&#;'];
    for (const text of near) expect(redactor.text(text)).toBe(text);
  });
});
