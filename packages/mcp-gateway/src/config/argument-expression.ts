import type { JsonValue } from '@parley/protocol';
import { GatewayError } from '../gateway-error.js';

/** The sources an argument mapping reads (README "Undo" and "Preconditions"). */
export const EXPRESSION_SOURCES = ['arguments', 'result', 'text'] as const;
export type ExpressionSource = (typeof EXPRESSION_SOURCES)[number];

/**
 * One value of an argument mapping: a literal, or a JSON Pointer (RFC 6901) into the committed
 * call's arguments, its result's structured content, or its text. A `*` segment maps over an
 * array, so `$result#/entities/*\/name` is every created entity's name.
 */
export type ArgumentExpression =
  | { kind: 'literal'; value: JsonValue }
  | { kind: 'pointer'; source: ExpressionSource; pointer: string[] };

/** What an expression is evaluated against. */
export type ExpressionContext = {
  arguments: JsonValue;
  result?: JsonValue | undefined;
  text?: string | undefined;
};

const EXPRESSION = /^\$(arguments|result|text)(?:#(\/.*)?)?$/;

/**
 * Parses one mapping value: `$arguments#/path`, `$result#/entities/*\/name`, `$text`, or a
 * literal (a string starting with `$$` is the literal text after the first `$`).
 */
export function parseExpression(value: JsonValue, where: string): ArgumentExpression {
  if (typeof value !== 'string' || !value.startsWith('$')) return { kind: 'literal', value };
  if (value.startsWith('$$')) return { kind: 'literal', value: value.slice(1) };
  const match = EXPRESSION.exec(value);
  if (match === null) {
    throw new GatewayError(
      `${where}: "${value}" is not $arguments#/pointer, $result#/pointer or $text (write $$ for a literal $)`,
    );
  }
  const source = match[1] as ExpressionSource;
  const pointer = (match[2] ?? '').split('/').slice(1).map(unescapePointer);
  if (source === 'text' && pointer.length > 0) {
    throw new GatewayError(`${where}: $text is the result's text and takes no pointer`);
  }
  return { kind: 'pointer', source, pointer };
}

/** The expression's text, for messages. */
export function expressionText(expression: ArgumentExpression): string {
  if (expression.kind === 'literal') return JSON.stringify(expression.value);
  const pointer = expression.pointer.map((p) => `/${p}`).join('');
  return pointer === '' ? `$${expression.source}` : `$${expression.source}#${pointer}`;
}

/** The value an expression names, or undefined when the path is absent. */
export function evaluateExpression(
  expression: ArgumentExpression,
  context: ExpressionContext,
): JsonValue | undefined {
  if (expression.kind === 'literal') return expression.value;
  const root =
    expression.source === 'arguments'
      ? context.arguments
      : expression.source === 'result'
        ? context.result
        : context.text;
  return root === undefined ? undefined : walk(root, expression.pointer);
}

function walk(value: JsonValue, pointer: readonly string[]): JsonValue | undefined {
  const [head, ...rest] = pointer;
  if (head === undefined) return value;
  if (head === '*') {
    if (!Array.isArray(value)) return undefined;
    const mapped = value.map((item) => walk(item, rest));
    return mapped.some((item) => item === undefined) ? undefined : (mapped as JsonValue[]);
  }
  if (Array.isArray(value)) {
    if (!/^(0|[1-9]\d*)$/.test(head)) return undefined;
    const item = value[Number(head)];
    return item === undefined ? undefined : walk(item, rest);
  }
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, head)) return undefined;
  return walk((value as Record<string, JsonValue>)[head] as JsonValue, rest);
}

/** RFC 6901 §4: `~1` is `/`, `~0` is `~`. */
function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
