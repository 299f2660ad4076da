import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway-error.js';
import { evaluateExpression, expressionText, parseExpression } from './argument-expression.js';

describe('argument mappings (undo and precondition arguments)', () => {
  const context = {
    arguments: { path: '/tmp/a.txt', 'a/b': 1, list: [{ id: 7 }] },
    result: { entities: [{ name: 'Ana' }, { name: 'Bo' }] },
    text: 'done',
  };

  it('reads the call, its structured result and its text by RFC 6901 pointers', () => {
    const value = (text: string) => evaluateExpression(parseExpression(text, 'x'), context);
    expect(value('$arguments#/path')).toBe('/tmp/a.txt');
    expect(value('$arguments#/a~1b')).toBe(1);
    expect(value('$arguments#/list/0/id')).toBe(7);
    expect(value('$result#/entities/*/name')).toEqual(['Ana', 'Bo']);
    expect(value('$text')).toBe('done');
    expect(value('$arguments')).toEqual(context.arguments);
    expect(value('$result#/missing')).toBeUndefined();
    expect(value('$result#/entities/*/missing')).toBeUndefined();
  });

  it('keeps anything else as a literal, and $$ as a literal dollar', () => {
    expect(parseExpression(3, 'x')).toEqual({ kind: 'literal', value: 3 });
    expect(parseExpression('plain', 'x')).toEqual({ kind: 'literal', value: 'plain' });
    expect(parseExpression('$$5', 'x')).toEqual({ kind: 'literal', value: '$5' });
    expect(expressionText(parseExpression('$result#/a/*/b', 'x'))).toBe('$result#/a/*/b');
  });

  it('refuses an expression it does not know, naming where it is', () => {
    expect(() => parseExpression('$response#/id', 'tools.x.undo.arguments.id')).toThrow(
      GatewayError,
    );
    expect(() => parseExpression('$text#/a', 'here')).toThrow(/takes no pointer/);
  });
});
