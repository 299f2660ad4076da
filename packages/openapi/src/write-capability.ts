import {
  type Effect,
  type JsonObject,
  type JsonScalar,
  type JsonValue,
  ParleyError,
} from '@parley/protocol';
import type { ApplyContext, IntentDefinition, ProposalDraft } from '@parley/service';
import { buildRequest, type HttpRequest, resourceUrl } from './http-request.js';
import { OpenApiError } from './openapi-error.js';
import type { Operation } from './operations.js';
import { type Backend, call } from './read-capability.js';
import {
  ifMatchOf,
  type ResourceVersion,
  readVersion,
  sameVersion,
  versionOf,
} from './resource-version.js';
import { sendOnce } from './send-once.js';
import type { UndoPlan } from './undo-plan.js';
import { pathOf } from './upstream.js';
import { upstreamError } from './upstream-error.js';
import { requestEffect, type WriteAction, writeResult } from './write-action.js';

/**
 * §4.3, §4.4: a POST, PUT, PATCH or DELETE as an intent capability. Its one proposal shows the
 * exact request COMMIT sends (method, URL and body) as its first effect, plus the scalar fields a
 * body changes on a resource it could read; risk, cost and undo come from the document. COMMIT
 * re-reads that resource and refuses with `conflict` if it changed (§5.1), then sends the request
 * with If-Match when the upstream gave a strong ETag; with an undo, it then reads what the undo
 * would act on, for the UNDO to check (left-state.ts).
 */
export function writeCapability(
  operation: Operation,
  backend: Backend,
  undo: UndoPlan | undefined,
): IntentDefinition {
  const policy = operation.policy;
  if (policy === undefined) throw new OpenApiError(`${operation.capability} is not a write`);
  const definition: IntentDefinition = {
    summary: operation.summary,
    params: operation.params,
    risk: policy.risk,
    // The risk of a write is a guess from its method: only one the document marks low (and
    // undoable) may skip the preview, whatever the grant allows (§4.3.1, issue 14).
    autoCommitMaxRisk: 'low',
    async plan(params) {
      return [await proposalOf(operation, params, backend, undo)];
    },
    apply: (action, ctx) => commitWrite(action as WriteAction, backend, operation, undo, ctx),
  };
  if (undo !== undefined)
    definition.revert = (action, ctx) => undo.revert(action as WriteAction, ctx);
  return definition;
}

async function proposalOf(
  operation: Operation,
  params: JsonObject,
  backend: Backend,
  undo: UndoPlan | undefined,
): Promise<ProposalDraft> {
  const policy = operation.policy as NonNullable<Operation['policy']>;
  const base = backend.upstream.base;
  const { request, values } = buildRequest(operation, params, base);
  let version: ResourceVersion | null = null;
  let before: JsonValue | null = null;
  if (operation.readable) {
    const url = resourceUrl(operation, values, base);
    const read = await call(() => backend.upstream.send({ method: 'GET', url }));
    version = versionOf(url, read);
    const creates = operation.method === 'put' && version.absent;
    if (!creates && (read.status < 200 || read.status >= 300)) {
      throw upstreamError(read, 'GET', url, backend.redactor);
    }
    before = version.absent ? null : read.body;
  }
  const draft: ProposalDraft = {
    summary: `${operation.summary}: ${request.method} ${pathOf(request.url)}`,
    effects: [requestEffect(policy.effect, request), ...fieldChanges(request, before, version)],
    cost: policy.cost,
    risk: policy.risk,
    undoWindow: undo?.window ?? null,
    action: { request, values, version, before: undo?.readsBefore === true ? before : null },
  };
  if (before !== null) draft.data = { current: before };
  return draft;
}

/** The top-level scalar fields a JSON body sets on the resource read before, from → to. */
function fieldChanges(
  request: HttpRequest,
  before: JsonValue | null,
  version: ResourceVersion | null,
): Effect[] {
  if (version === null || request.body === undefined || request.method === 'DELETE') return [];
  const body = JSON.parse(request.body) as JsonValue;
  if (!isObject(body)) return [];
  const old = isObject(before) ? before : {};
  const target = pathOf(version.url);
  const effects: Effect[] = [];
  for (const [field, to] of Object.entries(body)) {
    const from = old[field];
    if (!isScalar(to) || (from !== undefined && !isScalar(from)) || from === to) continue;
    const effect: Effect = { op: 'update', target, field, to: hashable(to) };
    if (from !== undefined) effect.from = hashable(from);
    effects.push(effect);
  }
  return effects;
}

/**
 * §4.4: the COMMIT of a write; anything that may have reached the upstream is never resent.
 * Progress says what happens: the check, then `sending` only once the request is about to go.
 */
async function commitWrite(
  action: WriteAction,
  backend: Backend,
  operation: Operation,
  undo: UndoPlan | undefined,
  ctx: ApplyContext,
): Promise<JsonValue> {
  const { request, version } = action;
  if (version !== null) {
    ctx.progress(`checking ${pathOf(version.url)} is as proposed`, 0.25);
    if (!sameVersion(version, await readVersion(backend, version.url))) {
      throw new ParleyError(
        'conflict',
        `${pathOf(version.url)} changed at the upstream since this proposal was made; re-run the INTENT to see it as it is now`,
        { fix: [{ say: `INTENT ${operation.capability} again with the same params` }] },
      );
    }
  }
  ctx.progress(`sending ${request.method} ${pathOf(request.url)}`, 0.5);
  const result = writeResult(await sendOnce(backend, request, ifMatchOf(version)));
  if (undo !== undefined) await undo.keepLeft(action, result, ctx);
  return result;
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isScalar(value: JsonValue | undefined): value is JsonScalar {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** §5.1: numbers in hashed fields are integers; any other number is shown as its text. */
function hashable(value: JsonScalar): JsonScalar {
  return typeof value === 'number' && !Number.isSafeInteger(value) ? String(value) : value;
}
