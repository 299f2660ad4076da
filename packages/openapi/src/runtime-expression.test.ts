import { describe, expect, it } from 'vitest';
import { OpenApiError } from './openapi-error.js';
import {
  type ExpressionContext,
  evaluateExpression,
  expressionText,
  parseExpression,
} from './runtime-expression.js';

const context: ExpressionContext = {
  request: { path: { petId: 7 }, query: { q: 'x' }, body: { user: { name: 'ana' } } },
  response: { body: { id: 10, 'a/b': { '~': [1, 2] } }, header: { location: '/pet/10' } },
  before: { body: { name: 'Rex' } },
};
const value = (text: unknown) => evaluateExpression(parseExpression(text, 'here'), context);

describe('OpenAPI runtime expressions for x-parley-undo', () => {
  it('reads the request, the answer, its Location, and the resource before the commit', () => {
    expect(value('$request.path.petId')).toBe(7);
    expect(value('$request.query.q')).toBe('x');
    expect(value('$request.body#/user/name')).toBe('ana');
    expect(value('$response.body#/id')).toBe(10);
    expect(value('$response.header.Location')).toBe('/pet/10');
    expect(value('$before.body')).toEqual({ name: 'Rex' });
  });

  it('RFC 6901 pointers: ~1 is /, ~0 is ~, array indexes; a missing value is undefined', () => {
    expect(value('$response.body#/a~1b/~0/1')).toBe(2);
    expect(value('$response.body#/missing/x')).toBeUndefined();
    expect(value('$response.body#/a~1b/~0/9')).toBeUndefined();
  });

  it('anything not starting with $ is a literal; an unknown expression is refused', () => {
    expect(value('closed')).toBe('closed');
    expect(value(3)).toBe(3);
    expect(() => parseExpression('$url', 'x-parley-undo.parameters.id')).toThrow(OpenApiError);
    expect(() => parseExpression('$request.header.x', 'here')).toThrow(/not a runtime expression/);
  });

  it('prints back as written', () => {
    expect(expressionText(parseExpression('$response.body#/a~1b', 'here'))).toBe(
      '$response.body#/a~1b',
    );
  });
});
