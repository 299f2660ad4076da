import { type JsonValue, ParleyError } from '@parley/protocol';
import type { AskDefinition } from '@parley/service';
import type { Redactor } from './credentials.js';
import { buildRequest } from './http-request.js';
import type { Operation } from './operations.js';
import { pathOf, type Upstream, type UpstreamResponse } from './upstream.js';
import { failureError, upstreamError } from './upstream-error.js';
import { UpstreamFailure } from './upstream-failure.js';

/** Response headers a HEAD answers with: what a client reads HEAD for. */
const HEAD_HEADERS = ['content-type', 'content-length', 'etag', 'last-modified'] as const;

/** The upstream, and the redactor an error's excerpt of its answer passes before it is cut. */
export type Backend = { upstream: Upstream; redactor: Redactor };

/** §4.2: a GET or HEAD as an ask capability; its answer is the upstream's JSON. */
export function readCapability(operation: Operation, backend: Backend): AskDefinition {
  return {
    summary: operation.summary,
    params: operation.params,
    async run(params) {
      const { request } = buildRequest(operation, params, backend.upstream.base);
      const response = await call(() => backend.upstream.send(request));
      if (response.status < 200 || response.status >= 300) {
        throw upstreamError(response, request.method, request.url, backend.redactor);
      }
      if (operation.method === 'head') return headAnswer(response);
      if (response.oversize) {
        throw new ParleyError(
          'limit',
          `the upstream's answer to ${request.method} ${pathOf(request.url)} is over 1 MiB; narrow the request`,
        );
      }
      return response.body ?? { status: response.status };
    },
  };
}

/** Sends, turning a request that got no answer into `unavailable` (§7). */
export async function call(send: () => Promise<UpstreamResponse>): Promise<UpstreamResponse> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof UpstreamFailure) throw failureError(error);
    throw error;
  }
}

function headAnswer(response: UpstreamResponse): JsonValue {
  const headers: Record<string, string> = {};
  for (const name of HEAD_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, headers };
}
