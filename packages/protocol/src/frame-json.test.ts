import { describe, expect, it } from 'vitest';
import { knownJson, rememberEnvelopeJson, rememberJson, stringifyFrame } from './frame-json.js';

const frameOf = (re: string, body: object) => ({ parley: 1, id: 's.1', re, ...body });

describe('§2.1 frame JSON made once', () => {
  it('writes a remembered body inside its envelope exactly as JSON.stringify does', () => {
    const bodies = [
      { kind: 'ANSWER', data: { events: [{ id: 'e1', title: '1:1 with Ana "design"' }] } },
      { kind: 'ANSWER', data: null, more: [] },
      { kind: 'ANSWER', data: 'é\u2028\ud800' },
    ];
    for (const body of bodies) {
      rememberJson(body, JSON.stringify(body));
      for (const re of ['1', 'a"b\\c', '']) {
        const frame = frameOf(re, body);
        rememberEnvelopeJson(frame, body);
        expect(knownJson(frame)).toBe(JSON.stringify(frame));
        expect(stringifyFrame(frame)).toBe(JSON.stringify(frame));
      }
    }
  });

  it('remembers nothing for a body whose members the envelope would reorder or overwrite', () => {
    const bodies = [{ '0': 'index first', kind: 'ANSWER' }, { kind: 'ANSWER', id: 'own' }, {}];
    for (const body of bodies) {
      rememberJson(body, JSON.stringify(body));
      const frame = frameOf('r', body);
      rememberEnvelopeJson(frame, body);
      expect(knownJson(frame)).toBeUndefined();
      expect(stringifyFrame(frame)).toBe(JSON.stringify(frame));
    }
    const unknown = frameOf('r', { kind: 'ANSWER', data: 1 });
    rememberEnvelopeJson(unknown, { kind: 'ANSWER', data: 1 });
    expect(knownJson(unknown)).toBeUndefined();
  });
});
