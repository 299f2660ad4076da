import type { CallToolResult } from '@modelcontextprotocol/server';

/** A tool result: the text the model reads, and the same outcome as structured content. */
export function textResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  return structured === undefined
    ? { content: [{ type: 'text', text }] }
    : { content: [{ type: 'text', text }], structuredContent: structured };
}

/** A tool error the model can act on: the text says what went wrong and what to do next. */
export function toolError(text: string, structured?: Record<string, unknown>): CallToolResult {
  return { ...textResult(text, structured), isError: true };
}

/** The sentence for a failure nobody planned for; the error itself goes to `report`. */
export function unexpectedError(error: unknown, report: (error: Error) => void): CallToolResult {
  report(error instanceof Error ? error : new Error(String(error)));
  return toolError('The tool failed unexpectedly; retrying will not help, so tell your user.');
}

/** `text` as one sentence: with a final full stop. */
export function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
