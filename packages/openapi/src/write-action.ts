import type { Effect, JsonValue } from '@parley/protocol';
import type { HttpRequest, RequestValues } from './http-request.js';
import type { ResourceVersion } from './resource-version.js';
import type { UpstreamResponse } from './upstream.js';

/** What a proposal of a write keeps for its COMMIT (and UNDO): never shown, never hashed. */
export type WriteAction = {
  request: HttpRequest;
  values: RequestValues;
  /** The resource as read when the proposal was made; COMMIT reads it again and compares. */
  version: ResourceVersion | null;
  /** Its body, kept only when the undo needs it (`$before.body`). */
  before: JsonValue | null;
};

/** What a committed write answers: the upstream's status and body. */
export type WriteResult = { status: number; body?: JsonValue; headers?: Record<string, string> };

/** §5.1: the request itself as an effect: `METHOD URL`, the body text as its detail. */
export function requestEffect(op: Effect['op'], request: HttpRequest): Effect {
  const effect: Effect = { op, target: `${request.method} ${request.url}` };
  if (request.body !== undefined) effect.detail = request.body;
  return effect;
}

/** The receipt's result: status and body, and the Location if any. */
export function writeResult(response: UpstreamResponse): WriteResult {
  const result: WriteResult = { status: response.status };
  const body = response.oversize
    ? `(${response.text.length} characters and more, not kept)`
    : response.body;
  if (body !== null) result.body = body;
  const location = response.headers.get('location');
  if (location !== null) result.headers = { location };
  return result;
}
