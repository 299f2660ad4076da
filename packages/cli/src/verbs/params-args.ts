import { isPlainObject, type JsonObject, type JsonValue } from '@parley/protocol';
import { CliError } from '../cli-error.js';

/**
 * Request params from the command line: `--params JSON` (an object) as the base, then each
 * `key=value` (a string) or `key:=JSON` (any JSON value: numbers, lists, objects) on top.
 */
export function paramsFrom(pairs: readonly string[], paramsJson: string | undefined): JsonObject {
  const params: JsonObject = paramsJson === undefined ? {} : parseObject(paramsJson);
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) {
      throw new CliError(`"${pair}" is not a parameter; write key=text or key:=JSON`);
    }
    const raw = pair[equals - 1] === ':';
    const key = pair.slice(0, raw ? equals - 1 : equals);
    if (key === '') throw new CliError(`"${pair}" has no parameter name`);
    const text = pair.slice(equals + 1);
    params[key] = raw ? parseJson(text, key) : text;
  }
  return params;
}

function parseObject(text: string): JsonObject {
  const value = parseJson(text, '--params');
  if (!isPlainObject(value)) throw new CliError('--params must be a JSON object');
  return value as JsonObject;
}

function parseJson(text: string, what: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw new CliError(`${what}: ${JSON.stringify(text.slice(0, 60))} is not valid JSON`);
  }
}
