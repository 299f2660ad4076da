import { describe, expect, it } from 'vitest';
import { createOpenApiService } from './openapi-service.js';

const ok = { '200': { description: 'ok' } };
const body = (properties: object, required: string[] = []) => ({
  required: true,
  content: { 'application/json': { schema: { type: 'object', required, properties } } },
});

/** A document whose POST /notes names `undo` as its x-parley-undo. */
const documentWith = (undo: unknown, extra: object = {}) => ({
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  servers: [{ url: 'http://127.0.0.1:9' }],
  paths: {
    '/notes': {
      post: {
        operationId: 'addNote',
        'x-parley-undo': undo,
        requestBody: body({ text: { type: 'string' } }, ['text']),
        responses: ok,
      },
    },
    '/notes/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      delete: { operationId: 'dropNote', responses: ok },
      get: { operationId: 'getNote', responses: ok },
    },
    ...extra,
  },
});

const refusal = (document: object) =>
  createOpenApiService({ document, trust: [] }).then(
    () => 'built',
    (e: unknown) => (e as Error).message,
  );

describe('x-parley-undo, checked when the service is built', () => {
  it('a mapped inverse builds, with the undo window on the proposals it will make', async () => {
    const undo = { operationId: 'dropNote', parameters: { id: '$response.body#/id' }, window: 60 };
    expect(await refusal(documentWith(undo))).toBe('built');
  });

  it('refuses an inverse that is not a write it serves, or a param it cannot fill', async () => {
    expect(await refusal(documentWith('nope'))).toBe(
      'POST /notes (addNote): x-parley-undo names nope, which is not a write this service serves',
    );
    expect(await refusal(documentWith('getNote'))).toContain('getNote, which is not a write');
    expect(await refusal(documentWith('dropNote'))).toBe(
      "POST /notes (addNote): x-parley-undo: cannot tell where dropNote's id comes from; map it in parameters (e.g. id: $response.body#/id)",
    );
    expect(
      await refusal(documentWith({ operationId: 'dropNote', parameters: { idd: 1, id: 1 } })),
    ).toContain('dropNote has no parameter idd');
  });

  it('refuses $before without a GET to read it, and headers other than Location', async () => {
    expect(
      await refusal(
        documentWith({ operationId: 'dropNote', parameters: { id: '$before.body#/id' } }),
      ),
    ).toContain('$before needs a GET on /notes');
    expect(
      await refusal(
        documentWith({ operationId: 'dropNote', parameters: { id: '$response.header.x-id' } }),
      ),
    ).toContain('only Location is kept');
  });

  it('refuses malformed x-parley-risk, x-parley-cost and windows, naming the operation', async () => {
    const with_ = (key: string, value: unknown) =>
      refusal({
        ...documentWith(undefined),
        paths: { '/a': { post: { operationId: 'a', [key]: value, responses: ok } } },
      });
    expect(await with_('x-parley-risk', 'extreme')).toBe(
      'POST /a (a): x-parley-risk must be low, medium, high (got "extreme")',
    );
    expect(await with_('x-parley-cost', { amount: 1.5, currency: 'USD' })).toContain(
      'x-parley-cost must be {amount: whole minor units (cents), currency: "USD"}',
    );
    expect(await with_('x-parley-undo', { operationId: 'a', window: -1 })).toContain(
      'window must be a positive number of seconds',
    );
  });
});
