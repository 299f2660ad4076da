import type { ParamSchema } from '@parley/protocol';
import { compactType, objectProperties, typeOf } from './compact-schema.js';
import {
  type HttpMethod,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  READ_METHODS,
  type RequestBodyObject,
  type SchemaObject,
  WRITE_METHODS,
  type WriteMethod,
} from './document.js';
import { type WritePolicy, writePolicy } from './extensions.js';

/** Where one Parley param goes in the HTTP request. */
export type ParamSource =
  | { in: 'path' | 'query'; name: string; style: string; explode: boolean }
  | { in: 'body-field'; name: string }
  | { in: 'body'; name: typeof WHOLE_BODY };

/** The param that carries a body that is not flattened into fields. */
export const WHOLE_BODY = 'body';

/** One OpenAPI operation as a Parley capability. */
export type Operation = {
  capability: string;
  operationId: string;
  method: HttpMethod;
  /** The path template, e.g. `/pet/{petId}`. */
  path: string;
  summary: string;
  params: ParamSchema;
  sources: ParamSource[];
  /** The JSON media type the body is sent as, when the operation takes one. */
  bodyType: string | undefined;
  /** Writes: risk, cost, undo and effect kind (x-parley-*). */
  policy: WritePolicy | undefined;
  /**
   * Writes that change or delete (not create): whether a GET on the same path, with no other
   * required params, reads the resource they change. A create's path is its collection, whose
   * other members may change freely.
   */
  readable: boolean;
};

/** An operation that is not served, and why. */
export type Skipped = { method: string; path: string; reason: string };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json(?:\s*;.*)?$/i;

/**
 * Every GET, HEAD, POST, PUT, PATCH and DELETE of the document as an Operation, with its params
 * from path, query and JSON body (§4.1.1 compact schema). Operations this service cannot call
 * faithfully (a required header or cookie, a body that is not JSON, a name clash) are skipped
 * with a reason, never half-served.
 */
export function readOperations(
  document: OpenApiDocument,
  prefix: string | undefined,
): { operations: Operation[]; skipped: Skipped[] } {
  const operations: Operation[] = [];
  const skipped: Skipped[] = [];
  const names = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of [...READ_METHODS, ...WRITE_METHODS]) {
      const operation = item[method];
      if (operation === undefined) continue;
      const skip = (reason: string): void => {
        skipped.push({ method: method.toUpperCase(), path, reason });
      };
      if (operation.deprecated === true) {
        skip('deprecated');
        continue;
      }
      const operationId = operation.operationId ?? derivedId(method, path);
      const capability = prefix === undefined ? operationId : `${prefix}.${operationId}`;
      if (names.has(capability)) {
        skip(`a second operation named ${capability}`);
        continue;
      }
      const where = `${method.toUpperCase()} ${path} (${operationId})`;
      const built = buildOperation(method, path, operation, item.parameters ?? [], where);
      if (typeof built === 'string') {
        skip(built);
        continue;
      }
      names.add(capability);
      const policy = (WRITE_METHODS as readonly string[]).includes(method)
        ? writePolicy(operation, method as WriteMethod, where)
        : undefined;
      operations.push({
        capability,
        operationId,
        method,
        path,
        summary: summaryOf(operation, method, path),
        ...built,
        policy,
        readable:
          policy !== undefined &&
          policy.effect !== 'create' &&
          readsResource(item.get, item.parameters ?? []),
      });
    }
  }
  return { operations, skipped };
}

/** An operation's params and sources, or why it cannot be served. */
function buildOperation(
  method: HttpMethod,
  path: string,
  operation: OperationObject,
  shared: ParameterObject[],
  where: string,
): Pick<Operation, 'params' | 'sources' | 'bodyType'> | string {
  const params: ParamSchema = {};
  const sources: ParamSource[] = [];
  for (const parameter of mergedParameters(shared, operation.parameters ?? [])) {
    if (parameter.in === 'header' || parameter.in === 'cookie') {
      if (parameter.required === true)
        return `needs the ${parameter.in} parameter ${parameter.name}`;
      continue;
    }
    if (parameter.schema === undefined) {
      if (parameter.required === true) return `parameter ${parameter.name} has no schema`;
      continue;
    }
    if (Object.hasOwn(params, parameter.name) || Object.hasOwn(params, `${parameter.name}?`)) {
      return `two parameters are named ${parameter.name}`;
    }
    const required = parameter.in === 'path' || parameter.required === true;
    params[required ? parameter.name : `${parameter.name}?`] = compactType(
      parameter.schema,
      parameter.description,
    );
    const style = parameter.style ?? (parameter.in === 'path' ? 'simple' : 'form');
    sources.push({
      in: parameter.in,
      name: parameter.name,
      style,
      explode: parameter.explode ?? style === 'form',
    });
  }
  const missing = [...path.matchAll(/\{([^}]+)\}/g)]
    .map((m) => m[1] as string)
    .find((name) => !sources.some((s) => s.in === 'path' && s.name === name));
  if (missing !== undefined) return `the path parameter ${missing} is not declared`;
  if (method === 'get' || method === 'head' || operation.requestBody === undefined) {
    return { params, sources, bodyType: undefined };
  }
  return withBody(operation.requestBody, params, sources, where);
}

function withBody(
  body: RequestBodyObject,
  params: ParamSchema,
  sources: ParamSource[],
  where: string,
): Pick<Operation, 'params' | 'sources' | 'bodyType'> | string {
  const types = Object.keys(body.content ?? {});
  const bodyType = types.find((type) => JSON_TYPE.test(type));
  const required = body.required === true;
  if (bodyType === undefined) {
    return required
      ? `its request body is ${types.join(' or ') || 'of no declared type'}, not JSON`
      : { params, sources, bodyType: undefined };
  }
  const schema: SchemaObject | undefined = body.content?.[bodyType]?.schema;
  const fields =
    schema !== undefined && typeOf(schema) === 'object' && schema.properties !== undefined
      ? objectProperties(schema)
      : undefined;
  const clash = (name: string): boolean =>
    Object.hasOwn(params, name) || Object.hasOwn(params, `${name}?`);
  if (fields !== undefined && fields.length > 0 && !fields.some((f) => clash(f.name))) {
    for (const field of fields) {
      params[required && field.required ? field.name : `${field.name}?`] = compactType(
        field.schema,
      );
      sources.push({ in: 'body-field', name: field.name });
    }
    return { params, sources, bodyType };
  }
  if (clash(WHOLE_BODY))
    return `a parameter is named ${WHOLE_BODY} and the body needs that name (${where})`;
  params[required ? WHOLE_BODY : `${WHOLE_BODY}?`] = compactType(schema, body.description);
  sources.push({ in: 'body', name: WHOLE_BODY });
  return { params, sources, bodyType };
}

/** OpenAPI: an operation's parameter overrides the path item's of the same name and place. */
function mergedParameters(shared: ParameterObject[], own: ParameterObject[]): ParameterObject[] {
  const key = (p: ParameterObject): string => `${p.in}:${p.name}`;
  const overridden = new Set(own.map(key));
  return [...shared.filter((p) => !overridden.has(key(p))), ...own];
}

/** A GET on the same path reads a write's resource when it needs nothing but path params. */
function readsResource(get: OperationObject | undefined, shared: ParameterObject[]): boolean {
  if (get === undefined) return false;
  return mergedParameters(shared, get.parameters ?? []).every(
    (p) => p.in === 'path' || p.required !== true,
  );
}

function summaryOf(operation: OperationObject, method: string, path: string): string {
  const text = operation.summary ?? operation.description?.split(/(?<=[.!?])\s/)[0];
  const line = text?.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return line === undefined || line === '' ? `${method.toUpperCase()} ${path}` : line;
}

/** A name for an operation without operationId: `get-pet-petId` for GET /pet/{petId}. */
function derivedId(method: string, path: string): string {
  const words = path
    .replace(/[{}]/g, '')
    .split(/[^A-Za-z0-9_]+/)
    .filter((w) => w !== '');
  return [method, ...words].join('-');
}
