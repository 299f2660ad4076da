import { createHash } from 'node:crypto';
import { compareCodePoints, encodeB64url, type JsonValue } from '@parley/protocol';

/**
 * A JSON value as one text, whatever order its keys came in: keys sorted as §10 sorts them
 * (code points), no whitespace, numbers as JavaScript prints them (so a fraction is kept
 * exactly, where §10's canonical JSON allows integers only). A tool call's arguments are shown
 * and committed as this text.
 */
export function stableJson(value: JsonValue): string {
  return JSON.stringify(sorted(value));
}

/** b64url SHA-256 of a value's stable JSON: a tool definition's or a read's fingerprint. */
export function digestOf(value: JsonValue): string {
  return encodeB64url(createHash('sha256').update(stableJson(value)).digest());
}

function sorted(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, JsonValue> = {};
  for (const key of Object.keys(value).sort(compareCodePoints)) {
    out[key] = sorted(value[key] as JsonValue);
  }
  return out;
}
