import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenApiDocument } from './document.js';
import { OpenApiError } from './openapi-error.js';

/** The OpenAPI versions served: 3.0.x and 3.1.x. */
const SUPPORTED_VERSION = /^3\.[01]\.\d+$/;
/** Schema violations listed in the error before "and N more". */
const SHOWN_PROBLEMS = 3;

/**
 * Reads an OpenAPI 3.0 or 3.1 document (a YAML or JSON file, or a parsed object), validates it
 * against the OpenAPI schema and resolves every `$ref` (internal and relative files; cycles stay
 * cycles). Throws OpenApiError naming the first problems.
 */
export async function loadDocument(source: string | object): Promise<OpenApiDocument> {
  const where = typeof source === 'string' ? source : 'the OpenAPI document';
  // The parser resolves refs in place: give it a copy, so a caller's object is left as it was.
  const input = typeof source === 'string' ? source : structuredClone(source);
  const version = await versionOf(input, where);
  if (version.startsWith('2.')) {
    throw new OpenApiError(
      `${where} is Swagger ${version}; serve an OpenAPI 3.0 or 3.1 document (convert it first)`,
    );
  }
  if (!SUPPORTED_VERSION.test(version)) {
    throw new OpenApiError(`${where} declares openapi ${version}; 3.0.x and 3.1.x are served`);
  }
  try {
    return (await SwaggerParser.validate(input as never)) as unknown as OpenApiDocument;
  } catch (error) {
    throw new OpenApiError(
      `${where} is not a valid OpenAPI ${version} document: ${problems(error)}`,
    );
  }
}

/** The `openapi` (or `swagger`) field, read before validation so the error can name it. */
async function versionOf(input: string | object, where: string): Promise<string> {
  let parsed: unknown;
  try {
    parsed = typeof input === 'string' ? await SwaggerParser.parse(input) : input;
  } catch (error) {
    throw new OpenApiError(`cannot read ${where}: ${firstLine(error)}`);
  }
  const fields = (parsed ?? {}) as { openapi?: unknown; swagger?: unknown };
  const version = fields.openapi ?? fields.swagger;
  if (typeof version !== 'string') {
    throw new OpenApiError(`${where} has no "openapi" version field; is it an OpenAPI document?`);
  }
  return version;
}

function problems(error: unknown): string {
  const details = (error as { details?: { instancePath?: string; message?: string }[] }).details;
  if (!Array.isArray(details) || details.length === 0) return firstLine(error);
  const shown = details
    .slice(0, SHOWN_PROBLEMS)
    .map(
      (d) =>
        `${d.instancePath === '' || d.instancePath === undefined ? '/' : d.instancePath} ${d.message ?? 'is invalid'}`,
    );
  const more = details.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? message).trim();
}
