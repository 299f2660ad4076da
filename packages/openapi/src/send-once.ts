import { ParleyError } from '@parley/protocol';
import { OutcomeUnknownError } from '@parley/service';
import type { HttpRequest } from './http-request.js';
import type { Backend } from './read-capability.js';
import type { UpstreamResponse } from './upstream.js';
import { upstreamError } from './upstream-error.js';
import { UpstreamFailure } from './upstream-failure.js';

/** Gateway answers after which the request may still have been carried out. */
const MAYBE_APPLIED = new Set([502, 504]);

/**
 * Sends a write (a COMMIT's request, or an UNDO's inverse request) that must never happen twice
 * (§4.4, §4.5), and returns its 2xx answer. When it may have reached the upstream without an
 * answer coming back (a timeout, a connection lost after sending, a gateway's 502 or 504) it throws
 * OutcomeUnknownError: the service then leaves the commit or undo in doubt for the operator
 * (`parley doubt`), never sending it again. One that surely never left is `unavailable`, to
 * retry; any other answer is the upstream's error.
 */
export async function sendOnce(
  backend: Backend,
  request: HttpRequest,
  extraHeaders: Record<string, string> = {},
): Promise<UpstreamResponse> {
  let response: UpstreamResponse;
  try {
    response = await backend.upstream.send(request, extraHeaders);
  } catch (error) {
    if (!(error instanceof UpstreamFailure)) throw error;
    const reason = error.message;
    if (error.sent === 'maybe') {
      throw new OutcomeUnknownError(
        `${reason}; it may have been carried out, so it will not be sent again`,
      );
    }
    throw new ParleyError('unavailable', `${reason}; nothing was sent`, { retry: 5 });
  }
  if (MAYBE_APPLIED.has(response.status)) {
    throw new OutcomeUnknownError(
      `${upstreamError(response, request.method, request.url, backend.redactor).message}; it may have been carried out, so it will not be sent again`,
    );
  }
  if (response.status < 200 || response.status >= 300) {
    throw upstreamError(response, request.method, request.url, backend.redactor);
  }
  return response;
}
