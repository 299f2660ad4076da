import { OpenApiError } from './openapi-error.js';

/**
 * What an undo's runtime expressions read: the committed request, the upstream's answer to it,
 * and the resource as it was read before the commit (`$before`, this package's addition).
 */
export type ExpressionContext = {
  request: { path: Record<string, unknown>; query: Record<string, unknown>; body: unknown };
  response: { body: unknown; header: Record<string, string> };
  before: { body: unknown };
};

/** A parsed runtime expression, or a literal value. */
export type Expression =
  | { kind: 'literal'; value: unknown }
  | { kind: 'named'; source: 'request.path' | 'request.query' | 'response.header'; name: string }
  | { kind: 'body'; source: 'request' | 'response' | 'before'; pointer: string[] };

const NAMED = /^\$(request\.path|request\.query|response\.header)\.([^#]+)$/;
const BODY = /^\$(request|response|before)\.body(?:#(\/.*)?)?$/;

/**
 * The subset of OpenAPI's runtime expressions (the Link Object's, §4.8.20 of OpenAPI 3.1) an
 * `x-parley-undo` mapping may use: `$request.path.NAME`, `$request.query.NAME`,
 * `$request.body#/pointer`, `$response.body#/pointer`, `$response.header.NAME`, and
 * `$before.body#/pointer`. Anything not starting with `$` is a literal value.
 */
export function parseExpression(value: unknown, where: string): Expression {
  if (typeof value !== 'string' || !value.startsWith('$')) return { kind: 'literal', value };
  const named = NAMED.exec(value);
  if (named !== null) {
    return {
      kind: 'named',
      source: named[1] as 'request.path' | 'request.query' | 'response.header',
      name:
        named[1] === 'response.header' ? (named[2] as string).toLowerCase() : (named[2] as string),
    };
  }
  const body = BODY.exec(value);
  if (body !== null) {
    const pointer = body[2] ?? '';
    return {
      kind: 'body',
      source: body[1] as 'request' | 'response' | 'before',
      pointer: pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer),
    };
  }
  throw new OpenApiError(
    `${where}: "${value}" is not a runtime expression this service reads ($request.path.NAME, $request.query.NAME, $request.body#/…, $response.body#/…, $response.header.NAME, $before.body#/…)`,
  );
}

/** The expression's value in `context`, or undefined when the value is not there. */
export function evaluateExpression(expression: Expression, context: ExpressionContext): unknown {
  switch (expression.kind) {
    case 'literal':
      return expression.value;
    case 'named': {
      const [scope, part] = expression.source.split('.') as ['request' | 'response', string];
      const values = (context[scope] as unknown as Record<string, Record<string, unknown>>)[part];
      return values?.[expression.name];
    }
    case 'body': {
      let value: unknown = context[expression.source].body;
      for (const token of expression.pointer) {
        if (Array.isArray(value) && /^(0|[1-9]\d*)$/.test(token)) value = value[Number(token)];
        else if (value !== null && typeof value === 'object' && Object.hasOwn(value, token)) {
          value = (value as Record<string, unknown>)[token];
        } else return undefined;
      }
      return value;
    }
  }
}

/** Whether the expression reads the resource as it was before the commit. */
export function readsBefore(expression: Expression): boolean {
  return expression.kind === 'body' && expression.source === 'before';
}

/** The text of an expression for messages. */
export function expressionText(expression: Expression): string {
  switch (expression.kind) {
    case 'literal':
      return JSON.stringify(expression.value);
    case 'named':
      return `$${expression.source}.${expression.name}`;
    case 'body':
      return `$${expression.source}.body${expression.pointer.length === 0 ? '' : `#/${expression.pointer.map(escapePointer).join('/')}`}`;
  }
}

/** RFC 6901: `~1` is `/`, `~0` is `~`. */
function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
