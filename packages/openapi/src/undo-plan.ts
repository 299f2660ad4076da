import { type JsonObject, type JsonValue, ParleyError, type Receipt } from '@parley/protocol';
import type { RevertOutcome } from '@parley/service';
import { buildRequest } from './http-request.js';
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
import {
  requestEffect,
  type WriteAction,
  type WriteResult,
  writeResult,
} from './write-capability.js';

/** A write's undo: the inverse operation, how its params are filled, and its window. */
export type UndoPlan = {
  window: number;
  /** The undo reads the resource as it was before the commit (`$before.body`). */
  readsBefore: boolean;
  revert(action: WriteAction, receipt: Receipt): Promise<RevertOutcome>;
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
  return {
    window: spec.window,
    readsBefore: before,
    revert: (action, receipt) =>
      revert(inverse, mapping, spec.requestBody, action, receipt, backend),
  };
}

async function revert(
  inverse: Operation,
  mapping: ReadonlyMap<string, Expression>,
  requestBody: Expression | undefined,
  action: WriteAction,
  receipt: Receipt,
  backend: Backend,
): Promise<RevertOutcome> {
  const result = (receipt.result ?? {}) as Partial<WriteResult>;
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
      throw new ParleyError(
        'conflict',
        `cannot undo ${receipt.id}: ${inverse.operationId}'s ${name} comes from ${expressionText(expression)}, which has no value`,
      );
    }
    params[name] = value as JsonValue;
  }
  const { request } = buildRequest(inverse, params, backend.upstream.base);
  if (requestBody !== undefined) {
    request.body = JSON.stringify(evaluateExpression(requestBody, context) ?? null);
    request.bodyType = inverse.bodyType ?? 'application/json';
  }
  // §4.5: an inverse request that may have been carried out is never sent a second time.
  const response = await sendOnce(backend, request);
  const policy = inverse.policy as NonNullable<Operation['policy']>;
  return {
    effects: [requestEffect(policy.effect, request)],
    result: writeResult(response) as unknown as JsonValue,
  };
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
