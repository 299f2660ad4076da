import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDocument } from './load-document.js';
import { OpenApiError } from './openapi-error.js';
import { PRESET_NAMES, presetPath } from './presets.js';

const folder = mkdtempSync(join(tmpdir(), 'parley-openapi-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};

describe('loading OpenAPI documents (swagger-parser)', () => {
  it('YAML with a $ref into another file, resolved', async () => {
    file('pet.yaml', 'type: object\nproperties:\n  name: {type: string}\n');
    const path = file(
      'api.yaml',
      [
        'openapi: 3.1.0',
        'info: {title: T, version: "1"}',
        'paths:',
        '  /pets:',
        '    post:',
        '      requestBody:',
        '        content:',
        '          application/json:',
        "            schema: {$ref: './pet.yaml'}",
        '      responses: {"200": {description: ok}}',
      ].join('\n'),
    );
    const document = await loadDocument(path);
    expect(
      document.paths?.['/pets']?.post?.requestBody?.content?.['application/json']?.schema,
    ).toEqual({ type: 'object', properties: { name: { type: 'string' } } });
  });

  it('both presets are valid documents', async () => {
    for (const name of PRESET_NAMES) {
      expect((await loadDocument(presetPath(name))).openapi).toMatch(/^3\.[01]\./);
    }
  });

  it('a parsed object is not changed by loading it', async () => {
    const input = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: {},
      components: { schemas: { A: { type: 'string' }, B: { $ref: '#/components/schemas/A' } } },
    };
    const copy = structuredClone(input);
    await loadDocument(input);
    expect(input).toEqual(copy);
  });

  it('refuses, in one sentence: Swagger 2.0, other versions, schema violations, unreadable files', async () => {
    const refusal = async (source: string | object) =>
      loadDocument(source).then(
        () => '',
        (e: unknown) => (e instanceof OpenApiError ? e.message : `not an OpenApiError: ${e}`),
      );
    expect(await refusal({ swagger: '2.0', info: { title: 'T', version: '1' }, paths: {} })).toBe(
      'the OpenAPI document is Swagger 2.0; serve an OpenAPI 3.0 or 3.1 document (convert it first)',
    );
    expect(await refusal({ openapi: '4.0.0' })).toContain('3.0.x and 3.1.x are served');
    expect(await refusal({ title: 'x' })).toContain('has no "openapi" version field');
    expect(await refusal({ openapi: '3.0.3', info: { title: 'T' }, paths: {} })).toBe(
      "the OpenAPI document is not a valid OpenAPI 3.0.3 document: /info must have required property 'version'",
    );
    expect(await refusal(join(folder, 'missing.yaml'))).toContain('cannot read');
    expect(await refusal(file('bad.yaml', 'openapi: [3\n  : :'))).toContain('cannot read');
  });
});
