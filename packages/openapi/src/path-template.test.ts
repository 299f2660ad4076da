import { ParleyError } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { fillPath } from './path-template.js';

const refusal = (template: string, values: Record<string, unknown>): string => {
  try {
    return `sent ${fillPath(template, values as never)}`;
  } catch (error) {
    if (!(error instanceof ParleyError)) throw error;
    return `${error.code}: ${error.message}`;
  }
};

describe('path params never change which path is requested (issue 21)', () => {
  it('fills each segment, simple style: lists joined by commas, parts percent-encoded', () => {
    expect(fillPath('/a/{x}/b/{y}', { x: 'p 1', y: ['m', 'n,o'] })).toBe('/a/p%201/b/m,n%2Co');
    expect(fillPath('/f/{name}.json', { name: '.' })).toBe('/f/..json');
    expect(fillPath('/m/{id}', { id: 'x..y' })).toBe('/m/x..y');
  });

  it.each([
    ['..', 'a dot segment'],
    ['%2e%2E', 'a dot segment'],
    ['%252e%252e', 'a dot segment'],
    ['%u002e', 'a dot segment'],
    ['．．', 'a dot segment'],
    ['..;jsessionid=1', 'a dot segment'],
    ['. .', 'a dot segment'],
    ['', 'an empty path segment'],
    ['%20', 'an empty path segment'],
    [';x', 'an empty path segment'],
    ['a/b', 'a slash or backslash'],
    ['a%2Fb', 'a slash or backslash'],
    ['a\\b', 'a slash or backslash'],
    ['%255C', 'a slash or backslash'],
    ['＼', 'a slash or backslash'],
    ['%c0%ae%c0%ae', 'percent-escapes that are not UTF-8'],
    [`x%${'25'.repeat(5)}41`, 'percent-escapes that are not UTF-8 or are nested over 4 deep'],
  ])('%j is refused: %s', (member, problem) => {
    expect(refusal('/projects/{project}/members/{member}', { project: 'p1', member })).toMatch(
      new RegExp(
        `^invalid_params: the path parameter member \\(.+\\) (makes|has|holds) ${problem.replace('\\', '\\\\')}`,
      ),
    );
  });

  it('a list item with a slash is refused; items joining into dots name every param', () => {
    expect(refusal('/m/{ids}', { ids: ['a', 'b/c'] })).toContain(
      'path parameter ids (["a","b/c"])',
    );
    expect(refusal('/m/{a}{b}', { a: '.', b: '.' })).toBe(
      'invalid_params: the path parameters a and b (".", ".") make a dot segment (once decoded), which would change which path is requested',
    );
  });
});
