/**
 * The parts of an OpenAPI 3.0/3.1 document this package reads, after the parser has validated it
 * and resolved every `$ref`. Extensions (`x-parley-*`) are read as `unknown` and checked where
 * they are used.
 */

/** A JSON Schema as OpenAPI 3.0 and 3.1 write it (3.1 allows `type` lists and `const`). */
export type SchemaObject = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  items?: SchemaObject;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  allOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  description?: string;
  title?: string;
  nullable?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
};

export type ParameterObject = {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
  style?: string;
  explode?: boolean;
  content?: Record<string, { schema?: SchemaObject }>;
};

export type RequestBodyObject = {
  required?: boolean;
  description?: string;
  content?: Record<string, { schema?: SchemaObject }>;
};

export type OperationObject = {
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  [extension: `x-${string}`]: unknown;
};

/** The HTTP methods that become capabilities: reads as ask, writes as intent. */
export const READ_METHODS = ['get', 'head'] as const;
export const WRITE_METHODS = ['post', 'put', 'patch', 'delete'] as const;
export type ReadMethod = (typeof READ_METHODS)[number];
export type WriteMethod = (typeof WRITE_METHODS)[number];
export type HttpMethod = ReadMethod | WriteMethod;

export type PathItemObject = { parameters?: ParameterObject[] } & {
  [method in HttpMethod]?: OperationObject;
};

export type SecuritySchemeObject = {
  type: string;
  name?: string;
  in?: string;
  scheme?: string;
};

export type OpenApiDocument = {
  openapi: string;
  info: {
    title: string;
    version: string;
    summary?: string;
    description?: string;
    [extension: `x-${string}`]: unknown;
  };
  servers?: { url: string; variables?: Record<string, { default?: string }> }[];
  paths?: Record<string, PathItemObject>;
  components?: { securitySchemes?: Record<string, SecuritySchemeObject> };
  [extension: `x-${string}`]: unknown;
};
