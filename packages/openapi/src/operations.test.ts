import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from './document.js';
import { readOperations } from './operations.js';

const ok = { '200': { description: 'ok' } };
const json = (schema: object, required = true) => ({
  required,
  content: { 'application/json': { schema } },
});

const document = {
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  paths: {
    '/things/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getThing', responses: ok },
      put: {
        operationId: 'putThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: json({ type: 'object', properties: { id: { type: 'integer' } } }),
        responses: ok,
      },
      patch: {
        requestBody: json({ type: 'object', properties: { name: { type: 'string' } } }, false),
        responses: ok,
      },
      delete: {
        operationId: 'dropThing',
        parameters: [
          { name: 'X-Reason', in: 'header', required: true, schema: { type: 'string' } },
        ],
        responses: ok,
      },
    },
    '/things': {
      get: {
        operationId: 'listThings',
        parameters: [
          { name: 'q', in: 'query', schema: { type: 'string' } },
          { name: 'trace', in: 'header', schema: { type: 'string' } },
        ],
        responses: ok,
      },
      post: {
        operationId: 'upload',
        requestBody: { required: true, content: { 'text/csv': { schema: { type: 'string' } } } },
        responses: ok,
      },
      head: { operationId: 'old', deprecated: true, responses: ok },
    },
  },
} as unknown as OpenApiDocument;

describe('operations from a document', () => {
  const { operations, skipped } = readOperations(document, 'acme');
  const byName = Object.fromEntries(operations.map((op) => [op.capability, op]));

  it('names: prefix.operationId, or method and path words when there is none', () => {
    expect(Object.keys(byName)).toEqual([
      'acme.getThing',
      'acme.putThing',
      'acme.patch-things-id',
      'acme.listThings',
    ]);
  });

  it("an operation's parameter overrides the path item's; optional headers are left out", () => {
    expect(byName['acme.putThing']?.params).toEqual({ id: 'int', body: { 'id?': 'int' } });
    expect(byName['acme.listThings']?.params).toEqual({ 'q?': 'string' });
  });

  it('a body that clashes with a param is one `body` param; an optional body makes every field optional', () => {
    expect(byName['acme.putThing']?.sources.at(-1)).toEqual({ in: 'body', name: 'body' });
    expect(byName['acme.patch-things-id']?.params).toEqual({ id: 'string', 'name?': 'string' });
  });

  it('a write on a path with a GET reads its resource; risk from the method', () => {
    expect(byName['acme.putThing']).toMatchObject({ readable: true, policy: { risk: 'medium' } });
    expect(byName['acme.getThing']).toMatchObject({ readable: false, policy: undefined });
  });

  it('skips, with a reason, what it cannot call faithfully', () => {
    expect(skipped).toEqual([
      { method: 'DELETE', path: '/things/{id}', reason: 'needs the header parameter X-Reason' },
      { method: 'HEAD', path: '/things', reason: 'deprecated' },
      { method: 'POST', path: '/things', reason: 'its request body is text/csv, not JSON' },
    ]);
  });
});
