import { type ErrorCode, estimateTokens, ParleyError } from '@parley/protocol';
import type { Redactor } from './credentials.js';
import { pathOf, type UpstreamResponse } from './upstream.js';
import type { UpstreamFailure } from './upstream-failure.js';

/** §8 estimated tokens of the upstream's body kept in an error message. */
export const EXCERPT_TOKENS = 60;
/** Seconds to wait before retrying a 5xx or 429 that gave no Retry-After. */
const DEFAULT_RETRY_SECONDS = 5;

/**
 * §7: an upstream answer that is not 2xx as a typed error whose one sentence names the status,
 * the request and a fitted excerpt of the body:
 * 400/422 invalid_params, 401 unavailable (the service's own credentials were refused),
 * 403 forbidden, 404/410 not_found, 409/412 conflict, 413/429 limit, 5xx unavailable.
 */
export function upstreamError(
  response: UpstreamResponse,
  method: string,
  url: string,
  redactor: Redactor,
): ParleyError {
  const status = `HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  // Redacted before it is cut, so no part of a credential is left at the cut.
  const excerpt = fittedExcerpt(redactor.text(response.text));
  const message = `the upstream answered ${status} to ${method} ${pathOf(url)}${excerpt === '' ? '' : `: ${excerpt}`}`;
  const code = codeOf(response.status);
  const retry =
    code === 'unavailable' || response.status === 429
      ? retryAfter(response.headers.get('retry-after'))
      : undefined;
  if (response.status === 401) {
    return new ParleyError(code, message, {
      fix: [{ say: 'the operator must give this service valid upstream credentials' }],
    });
  }
  return new ParleyError(code, message, retry === undefined ? {} : { retry });
}

/** §7: a request that got no answer is `unavailable`. */
export function failureError(failure: UpstreamFailure): ParleyError {
  return new ParleyError('unavailable', failure.message, {
    retry: DEFAULT_RETRY_SECONDS,
  });
}

function codeOf(status: number): ErrorCode {
  if (status === 400 || status === 422) return 'invalid_params';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 409 || status === 412) return 'conflict';
  if (status === 413 || status === 429) return 'limit';
  if (status >= 400 && status < 500 && status !== 401) return 'invalid_params';
  return 'unavailable';
}

/** Retry-After in seconds (a number, or an HTTP date), else the default. */
function retryAfter(header: string | null): number {
  if (header === null) return DEFAULT_RETRY_SECONDS;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at)
    ? DEFAULT_RETRY_SECONDS
    : Math.max(1, Math.ceil((at - Date.now()) / 1000));
}

/** The body on one line, cut to EXCERPT_TOKENS estimated tokens (§8) with an ellipsis. */
export function fittedExcerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (estimateTokens(line) <= EXCERPT_TOKENS) return line;
  let low = 0;
  let high = line.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (estimateTokens(`${line.slice(0, mid)}…`) <= EXCERPT_TOKENS) low = mid;
    else high = mid - 1;
  }
  return `${line.slice(0, low).trimEnd()}…`;
}
