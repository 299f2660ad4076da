import { describe, expect, it } from 'vitest';
import { type Consent, ERROR_CODES, type ErrorBody, isErrorCode, ParleyError } from './errors.js';

const consent: Consent = {
  proposal: 'p_7Hc2',
  hash: 'Qm9vYmFy',
  service: 'shop.example',
  capability: 'shop.order',
  principal: 'ed25519:AAAA',
  summary: 'Order 2 mugs',
  expires: 1_790_000_600,
};

describe('§7 errors', () => {
  it('knows exactly the twelve §7 codes', () => {
    expect([...ERROR_CODES]).toEqual([
      'bad_frame',
      'unknown_capability',
      'invalid_params',
      'unauthorized',
      'forbidden',
      'consent_required',
      'not_found',
      'expired',
      'conflict',
      'limit',
      'unavailable',
      'internal',
    ]);
    for (const code of ERROR_CODES) expect(isErrorCode(code)).toBe(true);
    for (const other of ['', 'BAD_FRAME', 'timeout', 'toString', 42, null, undefined]) {
      expect(isErrorCode(other)).toBe(false);
    }
  });

  it('is an Error with a code and the name ParleyError', () => {
    const error = new ParleyError('not_found', 'No such proposal.');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ParleyError');
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('No such proposal.');
  });

  it('writes only the fields that are present', () => {
    const body = new ParleyError('conflict', 'The hash does not match.').toBody();
    expect(body).toEqual({ code: 'conflict', message: 'The hash does not match.' });
    expect(Object.keys(body)).toEqual(['code', 'message']);
  });

  it('keeps retry: null, which says a retry will not help', () => {
    const body = new ParleyError('expired', 'The window closed.', { retry: null }).toBody();
    expect(body).toHaveProperty('retry', null);
    expect(Object.keys(body)).toEqual(['code', 'message', 'retry']);
  });

  it('never puts the cause on the wire', () => {
    const error = new ParleyError('internal', 'Something failed.', { cause: new Error('db') });
    expect(error.cause).toBeInstanceOf(Error);
    expect(Object.keys(error.toBody())).toEqual(['code', 'message']);
  });

  it.each<[string, ErrorBody]>([
    ['minimal', { code: 'bad_frame', message: 'The frame is not valid JSON.' }],
    [
      'with fix',
      {
        code: 'invalid_params',
        message: '`to` must be in the future.',
        fix: [{ say: 'use next year', params: { to: '2026-09-24T15:00:00Z' } }, { say: 'ask' }],
      },
    ],
    ['with need', { code: 'forbidden', message: 'Not covered.', need: [{ can: ['a.b'] }] }],
    ['with consent', { code: 'consent_required', message: 'Needs approval.', consent }],
    ['with retry', { code: 'unavailable', message: 'Busy.', retry: 30 }],
    [
      'with everything',
      {
        code: 'forbidden',
        message: 'Not covered.',
        fix: [{ say: 'x' }],
        need: [{ svc: ['a'] }],
        consent,
        retry: null,
      },
    ],
  ])('round-trips a %s body through fromBody and toBody', (_what, body) => {
    const error = ParleyError.fromBody(body);
    expect(error.code).toBe(body.code);
    expect(error.toBody()).toEqual(body);
    expect(Object.keys(error.toBody()).sort()).toEqual(Object.keys(body).sort());
  });
});
