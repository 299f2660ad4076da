import { describe, expect, it } from 'vitest';
import { McpUsageError } from '../mcp-usage-error.js';
import { BearerCheck, bearerTokenProblem, newBearerToken } from './bearer-token.js';

describe('bearer tokens of the MCP HTTP server (RFC 6750)', () => {
  it('makes 256-bit tokens, each new', () => {
    const token = newBearerToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(newBearerToken()).not.toBe(token);
    expect(bearerTokenProblem(token)).toBeUndefined();
  });

  it('refuses a token that is short or outside the b64token alphabet', () => {
    expect(bearerTokenProblem('a'.repeat(31))).toMatch(/at least 32 characters/);
    expect(bearerTokenProblem(`${'a'.repeat(40)} b`)).toMatch(/letters, digits/);
    expect(bearerTokenProblem(`${'a'.repeat(40)}\n`)).toMatch(/letters, digits/);
    expect(() => new BearerCheck('short')).toThrow(McpUsageError);
  });

  it('judges an Authorization header: missing, invalid, or valid', () => {
    const token = newBearerToken();
    const check = new BearerCheck(token);
    expect(check.judge(`Bearer ${token}`)).toBe('valid');
    expect(check.judge(`bearer  ${token}`)).toBe('valid');
    expect(check.judge(undefined)).toBe('missing');
    expect(check.judge(`Basic ${Buffer.from(`u:${token}`).toString('base64')}`)).toBe('missing');
    expect(check.judge('Bearer')).toBe('invalid');
    expect(check.judge(`Bearer ${token}x`)).toBe('invalid');
    expect(check.judge(`Bearer ${token.slice(0, -1)}`)).toBe('invalid');
    expect(check.judge(`Bearer ${newBearerToken()}`)).toBe('invalid');
    expect(check.judge(`Bearer ${token} ${token}`)).toBe('invalid');
  });
});
