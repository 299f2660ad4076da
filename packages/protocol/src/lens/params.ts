import type { ParamSchema } from '../frames.js';
import { compactJson } from './lean.js';

function isEntries(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * §4.1.1, §9.2: one parameter type. A type string is shown as written; a nested params object
 * as `{k: type, …}`; a one-element array (array of objects) as `[{…}]`. Anything else the
 * schema grammar doesn't allow is shown as compact JSON.
 */
function renderType(type: unknown): string {
  if (typeof type === 'string') return type;
  if (isEntries(type)) return `{${renderParamList(type)}}`;
  if (Array.isArray(type) && type.length === 1) return `[${renderType(type[0])}]`;
  return compactJson(type);
}

function renderParamList(params: Record<string, unknown>): string {
  let out = '';
  for (const name of Object.keys(params)) {
    const type = params[name];
    if (type === undefined) continue;
    if (out !== '') out += ', ';
    out += `${name}: ${renderType(type)}`;
  }
  return out;
}

/** §9.2: a capability's parameter list, `(p1: type1, p2?: type2)`; `()` when absent. */
export function renderParams(params: ParamSchema | undefined): string {
  return params === undefined ? '()' : `(${renderParamList(params)})`;
}
