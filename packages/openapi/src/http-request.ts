import type { JsonObject, JsonValue } from '@parley/protocol';
import type { Operation } from './operations.js';
import { fillPath, scalarText } from './path-template.js';

/** An HTTP request exactly as it will be sent, minus credentials and fixed headers. */
export type HttpRequest = {
  method: string;
  url: string;
  /** The JSON body text, byte for byte what is sent; absent when there is no body. */
  body?: string;
  /** The media type of `body`. */
  bodyType?: string;
};

/** The request's values by where they went, for runtime expressions (`$request.path.id`). */
export type RequestValues = {
  path: JsonObject;
  query: JsonObject;
  body: JsonValue | null;
};

/**
 * The request an operation sends for validated `params`: path params filled in (simple style;
 * one that would change the path is refused with invalid_params, path-template.ts),
 * query params serialized (form style, exploded or not, and deepObject), body fields gathered
 * into one JSON object in the document's order, or the whole `body` param.
 */
export function buildRequest(
  operation: Operation,
  params: JsonObject,
  base: string,
): { request: HttpRequest; values: RequestValues } {
  const values: RequestValues = { path: {}, query: {}, body: null };
  const query = new URLSearchParams();
  let fields: JsonObject | undefined;
  for (const source of operation.sources) {
    const value = params[source.name];
    if (value === undefined) continue;
    switch (source.in) {
      case 'path':
        values.path[source.name] = value;
        break;
      case 'query':
        values.query[source.name] = value;
        appendQuery(query, source, value);
        break;
      case 'body-field':
        fields ??= {};
        fields[source.name] = value;
        break;
      case 'body':
        values.body = value;
    }
  }
  if (fields !== undefined) values.body = fields;
  const search = query.toString();
  const request: HttpRequest = {
    method: operation.method.toUpperCase(),
    // §5.1: as the URL parser that sends it will read it, so the effect shows what is sent.
    url: new URL(
      `${base}${fillPath(operation.path, values.path)}${search === '' ? '' : `?${search}`}`,
    ).href,
  };
  const sendsBody =
    operation.bodyType !== undefined && (fields !== undefined || values.body !== null);
  if (sendsBody && operation.bodyType !== undefined) {
    request.body = JSON.stringify(values.body);
    request.bodyType = operation.bodyType;
  }
  return { request, values };
}

/** The same path's resource URL, read before a write and again at commit. */
export function resourceUrl(operation: Operation, values: RequestValues, base: string): string {
  return new URL(`${base}${fillPath(operation.path, values.path)}`).href;
}

/** OpenAPI `form` (exploded or not) and `deepObject` query serialization. */
function appendQuery(
  query: URLSearchParams,
  source: { name: string; style: string; explode: boolean },
  value: JsonValue,
): void {
  if (Array.isArray(value)) {
    if (source.explode) for (const item of value) query.append(source.name, scalarText(item));
    else query.append(source.name, value.map(scalarText).join(','));
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (source.style === 'deepObject') {
      for (const [key, v] of entries) query.append(`${source.name}[${key}]`, scalarText(v));
    } else if (source.explode) {
      for (const [key, v] of entries) query.append(key, scalarText(v));
    } else {
      query.append(source.name, entries.flatMap(([key, v]) => [key, scalarText(v)]).join(','));
    }
    return;
  }
  query.append(source.name, scalarText(value));
}
