import { describe, expect, it } from 'vitest';
import { keepEnvelopeJson, keepJson, stringifyFrame } from './frame-json.js';

const frameOf = (re: string, body: object) => ({ parley: 1, id: 's.1', re, ...body });

describe('§2.1 a reply serialized once', () => {
  it('writes a body kept with its JSON inside its envelope exactly as JSON.stringify does', () => {
    for (const make of [
      () => ({ kind: 'ANSWER', data: { events: [{ id: 'e1', title: '1:1 with "Ana"' }] } }),
      () => ({ kind: 'ANSWER', data: null, more: [] }),
      () => ({ kind: 'ANSWER', data: 'é\u2028\ud800' }),
    ]) {
      for (const re of ['1', 'a"b\\c', '']) {
        const body = make();
        keepJson(body, JSON.stringify(body));
        const frame = frameOf(re, body);
        keepEnvelopeJson(frame, body);
        expect(stringifyFrame(frame)).toBe(JSON.stringify(frame));
        expect(stringifyFrame(body)).toBe(JSON.stringify(body));
        // The kept text is no member: copies, keys and JSON leave it out.
        expect(Object.keys(frame)).toEqual(['parley', 'id', 're', ...Object.keys(body)]);
        const copy = { ...frame, re: 'other' };
        expect(stringifyFrame(copy)).toBe(JSON.stringify(copy));
      }
    }
  });

  it('keeps nothing for a body the envelope would reorder or overwrite, or one not kept', () => {
    for (const body of [
      { '0': 'index first', kind: 'ANSWER' },
      { kind: 'ANSWER', id: 'own' },
    ]) {
      keepJson(body, JSON.stringify(body));
      const frame = frameOf('r', body);
      keepEnvelopeJson(frame, body);
      expect(stringifyFrame(frame)).toBe(JSON.stringify(frame));
    }
    const plain = { kind: 'ANSWER', data: 1 };
    const frame = frameOf('r', plain);
    keepEnvelopeJson(frame, plain);
    frame.re = 'changed';
    expect(stringifyFrame(frame)).toBe(JSON.stringify(frame));
    const frozen = Object.freeze({ kind: 'ANSWER' });
    keepJson(frozen, '{"kind":"other"}');
    expect(stringifyFrame(frozen)).toBe(JSON.stringify(frozen));
  });
});
