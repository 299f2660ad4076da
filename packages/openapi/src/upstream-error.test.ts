import { estimateTokens } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { Redactor } from './credentials.js';
import type { UpstreamResponse } from './upstream.js';
import { EXCERPT_TOKENS, fittedExcerpt, upstreamError } from './upstream-error.js';

const response = (status: number, text = '', headers: Record<string, string> = {}) =>
  ({
    status,
    statusText: '',
    headers: new Headers(headers),
    text,
    body: null,
    oversize: false,
  }) as UpstreamResponse;
const redactor = new Redactor(['hunter22']);
const error = (status: number, text = '', headers: Record<string, string> = {}) =>
  upstreamError(response(status, text, headers), 'GET', 'http://h/a?b=1', redactor);

describe('§7 upstream errors', () => {
  it('codes from the status', () => {
    const codes = [400, 401, 403, 404, 405, 409, 410, 412, 413, 422, 429, 500, 503].map(
      (s) => `${s}:${error(s).code}`,
    );
    expect(codes).toEqual([
      '400:invalid_params',
      '401:unavailable',
      '403:forbidden',
      '404:not_found',
      '405:invalid_params',
      '409:conflict',
      '410:not_found',
      '412:conflict',
      '413:limit',
      '422:invalid_params',
      '429:limit',
      '500:unavailable',
      '503:unavailable',
    ]);
  });

  it('one sentence with the status, the request and the body, credentials removed', () => {
    const e = error(404, '{"message": "no hunter22\n here"}');
    expect(e.message).toBe(
      'the upstream answered HTTP 404 to GET /a?b=1: {"message": "no *** here"}',
    );
  });

  it('retry from Retry-After for 429 and 5xx', () => {
    expect(error(429, '', { 'retry-after': '30' }).retry).toBe(30);
    expect(error(503).retry).toBe(5);
    expect(error(404).retry).toBeUndefined();
  });

  it('the excerpt is fitted to its token budget (§8 estimate)', () => {
    const excerpt = fittedExcerpt('word, '.repeat(500));
    expect(estimateTokens(excerpt)).toBeLessThanOrEqual(EXCERPT_TOKENS);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(fittedExcerpt('short')).toBe('short');
  });
});
