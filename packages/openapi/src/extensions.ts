import { EFFECT_OPS, type EffectOp, type Money, RISK_LEVELS, type Risk } from '@parley/protocol';
import type { OpenApiDocument, OperationObject, WriteMethod } from './document.js';
import { OpenApiError } from './openapi-error.js';
import { type Expression, parseExpression } from './runtime-expression.js';

/** RFC 9110 §5.1: a header name is a token. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Seconds an `x-parley-undo` receipt can be undone when it names no window. */
export const DEFAULT_UNDO_WINDOW = 3600;

/**
 * The risk of a write from its method alone: creating and changing are medium, deleting is high.
 * No write is low unless the document says so (`x-parley-risk: low`), so none is auto-committed
 * unless the document marks it low risk and undoable.
 */
export const METHOD_RISK: Readonly<Record<WriteMethod, Risk>> = {
  post: 'medium',
  put: 'medium',
  patch: 'medium',
  delete: 'high',
};

/** §5.1 effect op of a write from its method (`x-parley-effect` overrides it). */
export const METHOD_EFFECT: Readonly<Record<WriteMethod, EffectOp>> = {
  post: 'create',
  put: 'update',
  patch: 'update',
  delete: 'delete',
};

/** `x-parley-undo`: the inverse operation and where its params and body come from. */
export type UndoSpec = {
  operationId: string;
  parameters: Record<string, Expression>;
  requestBody: Expression | undefined;
  window: number;
};

/** What a write declares beyond HTTP: risk, cost, undo and the kind of its effect. */
export type WritePolicy = {
  risk: Risk;
  cost: Money | null;
  undo: UndoSpec | null;
  effect: EffectOp;
};

/** Reads `x-parley-risk`, `x-parley-cost`, `x-parley-undo` and `x-parley-effect` of a write. */
export function writePolicy(
  operation: OperationObject,
  method: WriteMethod,
  where: string,
): WritePolicy {
  return {
    risk:
      oneOf(operation['x-parley-risk'], RISK_LEVELS, 'x-parley-risk', where) ?? METHOD_RISK[method],
    cost: costOf(operation['x-parley-cost'], where),
    undo: undoOf(operation['x-parley-undo'], where),
    effect:
      oneOf(operation['x-parley-effect'], EFFECT_OPS, 'x-parley-effect', where) ??
      METHOD_EFFECT[method],
  };
}

/** Document-wide settings: `info.x-parley-id`, `info.x-parley-prefix`, `x-parley-headers`. */
export type DocumentSettings = {
  id: string | undefined;
  prefix: string | undefined;
  headers: Record<string, string>;
};

export function documentSettings(document: OpenApiDocument): DocumentSettings {
  const id = document.info['x-parley-id'];
  const prefix = document.info['x-parley-prefix'];
  const headers = document['x-parley-headers'] ?? {};
  if (id !== undefined && (typeof id !== 'string' || id === '')) {
    throw new OpenApiError('info.x-parley-id must be a non-empty string (the service id)');
  }
  if (prefix !== undefined && (typeof prefix !== 'string' || !/^[A-Za-z0-9_-]+$/.test(prefix))) {
    throw new OpenApiError('info.x-parley-prefix must be a word (letters, digits, _ or -)');
  }
  if (
    typeof headers !== 'object' ||
    headers === null ||
    Object.entries(headers).some(
      ([name, value]) =>
        !HEADER_NAME.test(name) || typeof value !== 'string' || /[\r\n]/.test(value),
    )
  ) {
    throw new OpenApiError('x-parley-headers must map HTTP header names to one-line strings');
  }
  return { id, prefix, headers: headers as Record<string, string> };
}

function oneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  key: string,
  where: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
    return value as T;
  throw new OpenApiError(
    `${where}: ${key} must be ${allowed.join(', ')} (got ${JSON.stringify(value)})`,
  );
}

/** `x-parley-cost: {amount: minor units, currency: "USD"}` (§5.1 cost). */
function costOf(value: unknown, where: string): Money | null {
  if (value === undefined || value === null) return null;
  const cost = value as { amount?: unknown; currency?: unknown };
  if (
    typeof value !== 'object' ||
    !Number.isSafeInteger(cost.amount) ||
    (cost.amount as number) < 0 ||
    typeof cost.currency !== 'string' ||
    !/^[A-Z]{3}$/.test(cost.currency)
  ) {
    throw new OpenApiError(
      `${where}: x-parley-cost must be {amount: whole minor units (cents), currency: "USD"}`,
    );
  }
  return { amount: cost.amount as number, currency: cost.currency };
}

/**
 * `x-parley-undo: OPERATION_ID`, or the Link Object's shape `{operationId, parameters,
 * requestBody}` plus `window` (seconds, default one hour).
 */
function undoOf(value: unknown, where: string): UndoSpec | null {
  if (value === undefined || value === null) return null;
  const spec =
    typeof value === 'string' ? { operationId: value } : (value as Record<string, unknown>);
  const here = `${where}: x-parley-undo`;
  if (typeof spec !== 'object' || typeof spec.operationId !== 'string' || spec.operationId === '') {
    throw new OpenApiError(
      `${here} must name the inverse operation: OPERATION_ID or {operationId, parameters}`,
    );
  }
  const parameters = spec.parameters ?? {};
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    throw new OpenApiError(
      `${here}.parameters must map the inverse's parameter names to values or runtime expressions`,
    );
  }
  const window = spec.window ?? DEFAULT_UNDO_WINDOW;
  if (!Number.isSafeInteger(window) || (window as number) <= 0) {
    throw new OpenApiError(`${here}.window must be a positive number of seconds`);
  }
  return {
    operationId: spec.operationId,
    parameters: Object.fromEntries(
      Object.entries(parameters).map(([name, expression]) => [
        name,
        parseExpression(expression, `${here}.parameters.${name}`),
      ]),
    ),
    requestBody:
      spec.requestBody === undefined
        ? undefined
        : parseExpression(spec.requestBody, `${here}.requestBody`),
    window: window as number,
  };
}
