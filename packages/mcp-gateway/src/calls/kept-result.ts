import { isDeepStrictEqual } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { JsonObject, JsonValue } from '@parley/protocol';

/**
 * A tool's result as an answer or a receipt keeps it: `text` (its text parts), `structured`
 * (its structuredContent), `content` (what other blocks it had: images, audio, resources, by
 * type and size, not their bytes), and `cut` when something was left out to stay within
 * `limit` characters. Text that only prints the structured content (or one of its top-level
 * values, as server-memory does) is not kept twice.
 */
export function keptResult(result: CallToolResult, limit: number): JsonObject {
  const kept: JsonObject = {};
  const texts: string[] = [];
  const others: JsonObject[] = [];
  for (const block of result.content ?? []) {
    if (block.type === 'text') texts.push(block.text);
    else others.push(describeBlock(block as { type: string } & Record<string, unknown>));
  }
  const structured = result.structuredContent as JsonValue | undefined;
  let text = texts.join('\n');
  if (structured !== undefined && repeats(text, structured)) text = '';
  const cut: string[] = [];
  if (text.length > limit) {
    cut.push(`${text.length - limit} characters of text`);
    text = text.slice(0, limit);
  }
  if (text !== '') kept.text = text;
  if (structured !== undefined) {
    const size = JSON.stringify(structured).length;
    if (size + text.length <= limit) kept.structured = structured;
    else cut.push(`the structured content (${size} characters)`);
  }
  if (others.length > 0) kept.content = others;
  if (cut.length > 0) kept.cut = `left out: ${cut.join(', ')}`;
  return kept;
}

/** The tool's message from an error result: its text, on one line, at most 300 characters. */
export function toolMessage(result: CallToolResult): string {
  const text = (result.content ?? [])
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return 'it gave no reason';
  return text.length <= 300 ? text : `${text.slice(0, 299)}…`;
}

/**
 * Whether the text is the structured content printed, or one of its top-level values (a string
 * as itself, anything else printed as JSON).
 */
function repeats(text: string, structured: JsonValue): boolean {
  const parsed = parseJson(text);
  if (parsed !== undefined && isDeepStrictEqual(parsed, structured)) return true;
  if (structured === null || typeof structured !== 'object' || Array.isArray(structured)) {
    return false;
  }
  return Object.values(structured).some((value) =>
    typeof value === 'string' ? value === text : isDeepStrictEqual(parsed, value),
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeBlock(block: { type: string } & Record<string, unknown>): JsonObject {
  const out: JsonObject = { type: block.type };
  if (typeof block.mimeType === 'string') out.mimeType = block.mimeType;
  if (typeof block.data === 'string') out.bytes = Math.floor((block.data.length * 3) / 4);
  const resource = block.resource as { uri?: unknown } | undefined;
  const uri = typeof block.uri === 'string' ? block.uri : resource?.uri;
  if (typeof uri === 'string') out.uri = uri;
  return out;
}
