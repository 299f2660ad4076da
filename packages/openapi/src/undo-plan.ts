import { type JsonObject, type JsonValue, ParleyError } from '@parley/protocol';
import type { ApplyContext, RevertContext, RevertOutcome } from '@parley/service';
import { buildRequest, type HttpRequest, type RequestValues, resourceUrl } from './http-request.js';
import { holdLeft, keepLeft } from './left-state.js';
import { OpenApiError } from './openapi-error.js';
import type { Operation, ParamSource } from './operations.js';
import type { Backend } from './read-capability.js';
import {
  type Expression,
  type ExpressionContext,
  evaluateExpression,
  expressionText,
  readsBefore,
} from './runtime-expression.js';
import { sendOnce } from './send-once.js';
import { pathOf } from './upstream.js';
import { requestEffect, type WriteAction, type WriteResult, writeResult } from './write-action.js';

/** A write's undo: the inverse operation, how its params are filled, and its window. */
export type UndoPlan = {
  window: number;
  /** The undo reads the resource as it was before the commit (`$before.body`). */
  readsBefore: boolean;
  /** After the COMMIT: keeps the state of what the inverse request would act on (left-state.ts). */
  keepLeft(action: WriteAction, result: WriteResult, ctx: ApplyContext): Promise<void>;
  /**
   * §4.5: sends the inverse request, once what it acts on is checked to be as the commit left it.
   */
  revert(action: WriteAction, ctx: RevertContext): Promise<RevertOutcome>;
};

/** The receipt header an undo may read: the URL of what a POST created. */
const READABLE_HEADERS = new Set(['location']);

/**
 * §4.5: the undo `x-parley-undo` names, checked when the service is built: the inverse is a write
 * this service serves, and each of its required params has a value, from the mapping or else from
 * the committed request's param of the same name. Undefined when the write names no undo.
 */
export function undoPlanOf(
  operation: Operation,
  byOperationId: ReadonlyMap<string, Operation>,
  backend: Backend,
): UndoPlan | undefined {
  const spec = operation.policy?.undo;
  if (spec === undefined || spec === null) return undefined;
  const where = `${operation.method.toUpperCase()} ${operation.path} (${operation.operationId}): x-parley-undo`;
  const inverse = byOperationId.get(spec.operationId);
  if (inverse?.policy === undefined) {
    throw new OpenApiError(
      `${where} names ${spec.operationId}, which is not a write this service serves`,
    );
  }
  const mapping = new Map<string, Expression>(Object.entries(spec.parameters));
  for (const name of mapping.keys()) {
    if (!inverse.sources.some((s) => s.name === name)) {
      throw new OpenApiError(`${where}: ${spec.operationId} has no parameter ${name}`);
    }
  }
  for (const source of inverse.sources) {
    if (mapping.has(source.name) || !isRequired(inverse, source.name)) continue;
    const same = operation.sources.find((s) => s.name === source.name);
    if (same !== undefined) mapping.set(source.name, fromRequest(same));
    else if (!(isBody(source) && spec.requestBody !== undefined)) {
      throw new OpenApiError(
        `${where}: cannot tell where ${spec.operationId}'s ${source.name} comes from; map it in parameters (e.g. ${source.name}: $response.body#/${source.name})`,
      );
    }
  }
  const expressions = [
    ...mapping.values(),
    ...(spec.requestBody === undefined ? [] : [spec.requestBody]),
  ];
  const before = expressions.some(readsBefore);
  if (before && !operation.readable) {
    throw new OpenApiError(
      `${where}: $before needs a GET on ${operation.path} to read the resource before the commit`,
    );
  }
  for (const expression of expressions) {
    if (
      expression.kind === 'named' &&
      expression.source === 'response.header' &&
      !READABLE_HEADERS.has(expression.name)
    ) {
      throw new OpenApiError(`${where}: of the answer's headers only Location is kept for an undo`);
    }
  }
  const inverseOf = (action: WriteAction, result: Partial<WriteResult>) =>
    inverseRequest(inverse, mapping, spec.requestBody, action, result, backend.upstream.base);
  return {
    window: spec.window,
    readsBefore: before,
    async keepLeft(action, result, ctx) {
      if (!inverse.readable) return;
      const built = inverseOf(action, result);
      if (typeof built === 'string') return;
      await keepLeft(
        backend,
        ctx.data,
        ctx.proposal.id,
        resourceUrl(inverse, built.values, backend.upstream.base),
      );
    },
    async revert(action, ctx) {
      const { receipt } = ctx;
      const built = inverseOf(action, (receipt.result ?? {}) as Partial<WriteResult>);
      if (typeof built === 'string')
        throw new ParleyError('conflict', `cannot undo ${receipt.id}: ${built}`);
      const { request, values } = built;
      // §4.5: only over the state the commit left, as a COMMIT only over the state proposed.
      const ifMatch = inverse.readable
        ? await holdLeft(
            backend,
            ctx.data,
            receipt,
            resourceUrl(inverse, values, backend.upstream.base),
            ctx.progress,
          )
        : {};
      ctx.progress(`sending ${request.method} ${pathOf(request.url)}`, 0.5);
      // An inverse request that may have been carried out is never sent a second time.
      const response = await sendOnce(backend, request, ifMatch);
      const policy = inverse.policy as NonNullable<Operation['policy']>;
      return {
        effects: [requestEffect(policy.effect, request)],
        result: writeResult(response) as unknown as JsonValue,
      };
    },
  };
}

/**
 * The inverse request for a committed write and its answer, or why it cannot be made: a
 * required param whose expression has no value, or a path param that would change the path.
 */
function inverseRequest(
  inverse: Operation,
  mapping: ReadonlyMap<string, Expression>,
  requestBody: Expression | undefined,
  action: WriteAction,
  result: Partial<WriteResult>,
  base: string,
): { request: HttpRequest; values: RequestValues } | string {
  const context: ExpressionContext = {
    request: action.values,
    response: { body: result.body ?? null, header: result.headers ?? {} },
    before: { body: action.before },
  };
  const params: JsonObject = {};
  for (const [name, expression] of mapping) {
    const value = evaluateExpression(expression, context);
    if (value === undefined) {
      if (!isRequired(inverse, name)) continue;
      return `${inverse.operationId}'s ${name} comes from ${expressionText(expression)}, which has no value`;
    }
    params[name] = value as JsonValue;
  }
  let built: { request: HttpRequest; values: RequestValues };
  try {
    built = buildRequest(inverse, params, base);
  } catch (error) {
    if (error instanceof ParleyError) return error.message;
    throw error;
  }
  if (requestBody !== undefined) {
    built.request.body = JSON.stringify(evaluateExpression(requestBody, context) ?? null);
    built.request.bodyType = inverse.bodyType ?? 'application/json';
  }
  return built;
}

function fromRequest(source: ParamSource): Expression {
  switch (source.in) {
    case 'path':
      return { kind: 'named', source: 'request.path', name: source.name };
    case 'query':
      return { kind: 'named', source: 'request.query', name: source.name };
    case 'body-field':
      return { kind: 'body', source: 'request', pointer: [source.name] };
    case 'body':
      return { kind: 'body', source: 'request', pointer: [] };
  }
}

function isRequired(operation: Operation, name: string): boolean {
  return Object.hasOwn(operation.params, name);
}

function isBody(source: ParamSource): boolean {
  return source.in === 'body' || source.in === 'body-field';
}
