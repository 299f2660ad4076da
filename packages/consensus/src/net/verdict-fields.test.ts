import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verdictText } from './delegate-server.js';
import { generalFields, verdictFields, writtenFields } from './verdict-fields.js';

const SIG = 'ab'.repeat(64);
const KEY = 'cd'.repeat(32);

describe('verdictFields', () => {
  it('reads a verdict in the form delegates write field by field, to what the full reader gives', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...' !#AZaz09[]~-_.') }),
        fc.boolean(),
        fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, 1e-5, 0.5)),
        fc.boolean(),
        (owner, acceptable, score, signed) => {
          const text = verdictText({
            owner,
            acceptable,
            score,
            reason: acceptable ? 'ok' : 'red-line',
            sig: signed ? SIG : null,
            pubkey_hex: signed ? KEY : null,
          });
          const written = writtenFields(text);
          expect(written, text).not.toBeNull();
          expect(written).toEqual(generalFields(text));
        },
      ),
    );
  });

  it('leaves every other form to the full reader, which reads it as before', () => {
    const texts = [
      // An int score: Python reads an int, which a verdict may not carry.
      '{"owner": "Ana", "acceptable": true, "score": 1, "reason": "ok"}',
      // Not JSON: a leading zero.
      '{"owner": "Ana", "acceptable": true, "score": 00.5, "reason": "ok"}',
      // Past a double: Python reads inf, which the full reader refuses.
      '{"owner": "Ana", "acceptable": true, "score": 1e999, "reason": "ok"}',
      // Other spacing, other order, an escape, uppercase hex, a field more, a key twice.
      '{"owner":"Ana","acceptable":true,"score":0.5,"reason":"ok"}',
      '{"acceptable": true, "owner": "Ana", "score": 0.5, "reason": "ok"}',
      '{"owner": "An\\u0061", "acceptable": true, "score": 0.5, "reason": "ok"}',
      `{"owner": "Ana", "acceptable": true, "score": 0.5, "reason": "ok", "sig": "${SIG.toUpperCase()}", "pubkey_hex": "${KEY}"}`,
      '{"owner": "Ana", "acceptable": true, "score": 0.5, "reason": "ok", "extra": 1}',
      '{"owner": "Ana", "owner": "Bo", "acceptable": true, "score": 0.5, "reason": "ok"}',
      '{"owner": "Ana", "acceptable": true, "score": 0.5, "reason": "fine"}',
      '[1, 2]',
      'not json',
    ];
    for (const text of texts) {
      expect(writtenFields(text), text).toBeNull();
      expect(verdictFields(text)).toEqual(generalFields(text));
    }
    expect(generalFields('[1, 2]')).toBeNull();
    expect(generalFields('{"owner": "Ana", "owner": "Bo"}')?.owner).toBe('Bo');
  });

  it('gives absent fields as undefined, as the full reader does', () => {
    const text = '{"owner": "Ana", "acceptable": false, "score": 0.0, "reason": "red-line"}';
    expect(writtenFields(text)).toMatchObject({ sig: undefined, pubkey_hex: undefined });
    expect(writtenFields(text)).toEqual(generalFields(text));
  });
});
