import { describe, expect, it } from 'vitest';
import { optionPayloadText } from '../signing/payloads.js';
import { AskedOption } from './asked-option.js';
import { wireText } from './wire.js';

describe('AskedOption', () => {
  const option = { day: 'mi\u00e9rcoles', hour: 14, place: { room: 'B', floor: 2.0 } };

  it('writes the body each delegate is sent, outside a session and in each session asked in', () => {
    const asked = new AskedOption(option);
    expect(asked.text).toBe(optionPayloadText(option));
    expect(asked.body(null)).toBe(wireText({ option }));
    expect(asked.body('n1')).toBe(wireText({ option, session: 'n1' }));
    expect(asked.body('n1')).toBe(asked.body('n1'));
    expect(asked.body('n2')).toBe(wireText({ option, session: 'n2' }));
    expect(asked.body(null)).toBe(wireText({ option }));
  });

  it('has no payload text for an option that cannot be written in one', () => {
    expect(new AskedOption({ bad: '\ud800' }).text).toBeUndefined();
  });
});
