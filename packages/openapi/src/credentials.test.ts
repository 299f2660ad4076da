import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from './credentials.js';

describe('Redactor', () => {
  const redactor = new Redactor(['s3cr/t+', 'Bearer tok123']);

  it('hides the secret, the token after a scheme word, and their percent-encodings', () => {
    expect(redactor.text('key s3cr/t+ and s3cr%2Ft%2B; Bearer tok123; tok123')).toBe(
      `key ${REDACTED} and ${REDACTED}; ${REDACTED}; ${REDACTED}`,
    );
  });

  it('walks JSON strings and keys, and cleans errors with their causes', () => {
    expect(redactor.json({ tok123: ['x s3cr/t+'], n: 1 })).toEqual({
      [REDACTED]: [`x ${REDACTED}`],
      n: 1,
    });
    const error = redactor.error(
      new Error('failed with tok123', { cause: new Error('inner s3cr/t+') }),
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
