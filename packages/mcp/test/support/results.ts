import type { CallToolResult } from '@modelcontextprotocol/server';

/** The text of a tool result (its first content block). */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  const first = content[0];
  if (first?.type !== 'text')
    throw new Error(`expected a text result, got ${JSON.stringify(result)}`);
  return first.text;
}

/** Whether the tool result is a tool error. */
export function isToolError(result: unknown): boolean {
  return (result as CallToolResult).isError === true;
}

/** The JSON-RPC error code a rejected request carried. */
export async function rejectionCode(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
  } catch (error) {
    return (error as { code?: number }).code;
  }
  return undefined;
}
