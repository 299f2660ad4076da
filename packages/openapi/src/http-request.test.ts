import { describe, expect, it } from 'vitest';
import { buildRequest } from './http-request.js';
import type { Operation } from './operations.js';

const operation = (overrides: Partial<Operation>): Operation => ({
  capability: 'x.op',
  operationId: 'op',
  method: 'get',
  path: '/items/{id}',
  summary: 'Op',
  params: {},
  sources: [{ in: 'path', name: 'id', style: 'simple', explode: false }],
  bodyType: undefined,
  policy: undefined,
  readable: false,
  ...overrides,
});

describe('the HTTP request of an operation', () => {
  it('path params percent-encoded; query in form style, exploded or not, and deepObject', () => {
    const op = operation({
      sources: [
        { in: 'path', name: 'id', style: 'simple', explode: false },
        { in: 'query', name: 'tags', style: 'form', explode: true },
        { in: 'query', name: 'ids', style: 'form', explode: false },
        { in: 'query', name: 'filter', style: 'deepObject', explode: true },
        { in: 'query', name: 'absent', style: 'form', explode: true },
      ],
    });
    const { request, values } = buildRequest(
      op,
      { id: 'a b:c', tags: ['x', 'y'], ids: [1, 2], filter: { color: 'red' } },
      'http://h/api',
    );
    expect(request).toEqual({
      method: 'GET',
      url: 'http://h/api/items/a%20b%3Ac?tags=x&tags=y&ids=1%2C2&filter%5Bcolor%5D=red',
    });
    expect(values).toEqual({
      path: { id: 'a b:c' },
      query: { tags: ['x', 'y'], ids: [1, 2], filter: { color: 'red' } },
      body: null,
    });
  });

  it('body fields gathered in the document order, as the exact JSON text sent', () => {
    const op = operation({
      method: 'post',
      path: '/items',
      bodyType: 'application/json',
      sources: [
        { in: 'body-field', name: 'name' },
        { in: 'body-field', name: 'size' },
      ],
    });
    const { request } = buildRequest(op, { size: 2, name: 'box' }, 'http://h');
    expect(request).toEqual({
      method: 'POST',
      url: 'http://h/items',
      body: '{"name":"box","size":2}',
      bodyType: 'application/json',
    });
    expect(buildRequest(op, {}, 'http://h').request.body).toBeUndefined();
  });

  it('a whole body param is sent as given', () => {
    const op = operation({
      method: 'put',
      path: '/items',
      bodyType: 'application/merge-patch+json',
      sources: [{ in: 'body', name: 'body' }],
    });
    expect(buildRequest(op, { body: [1, 2] }, 'http://h').request).toMatchObject({
      body: '[1,2]',
      bodyType: 'application/merge-patch+json',
    });
  });
});
