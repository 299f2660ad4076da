import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor, secretTexts } from './credentials.js';

describe('Redactor', () => {
  const redactor = new Redactor(['s3cr/t+', 'Bearer tok123']);

  it('hides the secret, the token after a scheme word, and their percent-encodings', () => {
    expect(redactor.text('key s3cr/t+ and s3cr%2Ft%2B; Bearer tok123; tok123')).toBe(
      `key ${REDACTED} and ${REDACTED}; Bearer ${REDACTED}; ${REDACTED}`,
    );
  });

  it('walks JSON strings and keys, and cleans errors with their causes', () => {
    expect(redactor.json({ tok123: ['x s3cr/t+'], n: 1 })).toEqual({
      [REDACTED]: [`x ${REDACTED}`],
      n: 1,
    });
    const error = redactor.error(
      new Error('failed with tok123', { cause: new Error('inner s3cr\\/t+') }),
    ) as Error;
    expect(error.message).toBe(`failed with ${REDACTED}`);
    expect(String((error.cause as Error).message)).toBe(`inner ${REDACTED}`);
    expect(error.stack).not.toContain('tok123');
  });

  it('with no secrets, leaves everything as it is', () => {
    const none = new Redactor([]);
    expect(none.active).toBe(false);
    expect(none.text('***')).toBe('***');
  });
});

describe('the texts that reveal a credential', () => {
  it('a bearer token: the token alone (the header holds it)', () => {
    expect(secretTexts(['tok123', 'Bearer tok123'])).toEqual(['tok123']);
  });

  it('Basic auth: the password alone, and the base64 sent', () => {
    const basic = `Basic ${Buffer.from('octo:hunter2-long').toString('base64')}`;
    expect(secretTexts(['octo:hunter2-long', basic])).toEqual([
      'b2N0bzpodW50ZXIyLWxvbmc=',
      'hunter2-long',
    ]);
  });

  it('a password shorter than 8 characters is hidden only within user:pass', () => {
    const basic = `Basic ${Buffer.from('octo:pw').toString('base64')}`;
    expect(secretTexts(['octo:pw', basic])).toEqual(['octo:pw', 'b2N0bzpwdw==']);
  });

  it('texts equal but for case count once', () => {
    expect(secretTexts(['AbCdEf', 'abcdef'])).toEqual(['abcdef']);
  });
});
