import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

/** The JSON Schema dialects a tool's inputSchema may declare in `$schema`. */
const DIALECTS = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'http://json-schema.org/draft-07/schema': 'draft-07',
} as const;
type Dialect = (typeof DIALECTS)[keyof typeof DIALECTS];

/** Checks a value against a compiled schema: undefined when it holds, else the reason. */
export type ArgumentCheck = (value: unknown) => string | undefined;

/** A schema this gateway cannot compile, with the reason; never reaches a peer. */
export class SchemaCompileError extends Error {
  override readonly name = 'SchemaCompileError';
}

type AjvLike = { compile(schema: object): ValidateFunction };

// ajv-formats is CommonJS whose declarations name its plugin `default`; Node hands an ES module
// the plugin itself as the default import.
const addFormats = ((formatsModule as { default?: unknown }).default ?? formatsModule) as (
  ajv: AjvLike,
) => unknown;

const validators = new Map<Dialect, AjvLike>();

/**
 * Compiles a JSON Schema (a tool's inputSchema, or this package's config schema) with Ajv in the
 * dialect its `$schema` names; none means 2020-12, MCP's default (2025-11-25). Formats are
 * checked (ajv-formats); unknown keywords are ignored, as JSON Schema says. Defaults are never
 * filled in: a call is sent exactly as it was shown.
 */
export function compileSchema(schema: object): ArgumentCheck {
  const dialect = dialectOf(schema);
  let validate: ValidateFunction;
  try {
    validate = validatorFor(dialect).compile(schema);
  } catch (error) {
    throw new SchemaCompileError(
      `its JSON Schema does not compile: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return (value) => (validate(value) ? undefined : reasonOf(validate.errors ?? []));
}

function dialectOf(schema: object): Dialect {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined) return '2020-12';
  const key = typeof declared === 'string' ? declared.replace(/#$/, '') : '';
  const dialect = (DIALECTS as Record<string, Dialect>)[key];
  if (dialect === undefined) {
    throw new SchemaCompileError(
      `its JSON Schema dialect ${JSON.stringify(declared)} is not one of 2020-12, 2019-09, draft-07`,
    );
  }
  return dialect;
}

function validatorFor(dialect: Dialect): AjvLike {
  const known = validators.get(dialect);
  if (known !== undefined) return known;
  // strict: false ignores keywords a server adds (JSON Schema's rule for unknown keywords).
  const options = { strict: false, allErrors: false, useDefaults: false, coerceTypes: false };
  const ajv =
    dialect === '2020-12'
      ? new Ajv2020(options)
      : dialect === '2019-09'
        ? new Ajv2019(options)
        : new Ajv(options);
  addFormats(ajv);
  validators.set(dialect, ajv);
  return ajv;
}

/** Ajv's first error as a sentence: where (a JSON Pointer into the value) and what is wrong. */
function reasonOf(errors: readonly ErrorObject[]): string {
  const first = errors[0];
  if (first === undefined) return 'it does not match the schema';
  const where = first.instancePath === '' ? 'the arguments' : `\`${first.instancePath}\``;
  const extra =
    first.keyword === 'additionalProperties'
      ? ` (\`${String((first.params as { additionalProperty?: unknown }).additionalProperty)}\`)`
      : first.keyword === 'enum'
        ? `: ${((first.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`
        : '';
  return `${where} ${first.message ?? 'does not match the schema'}${extra}`;
}
