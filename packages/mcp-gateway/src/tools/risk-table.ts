import type { Risk } from '@parley/protocol';

/** The MCP tool annotations the gateway reads (MCP 2025-11-25, `ToolAnnotations`). */
export type ToolHints = {
  readOnlyHint?: boolean | undefined;
  destructiveHint?: boolean | undefined;
  idempotentHint?: boolean | undefined;
  openWorldHint?: boolean | undefined;
};

/**
 * The risk of a tool that is not read-only, from its hints, with the MCP defaults for absent
 * ones (destructive: true, idempotent: false, open world: true), so a tool that says nothing is
 * high risk. Only an additive, idempotent call that reaches nothing outside the server is low.
 *
 * | destructiveHint | openWorldHint | idempotentHint | risk   |
 * | --------------- | ------------- | -------------- | ------ |
 * | true (default)  | any           | any            | high   |
 * | false           | true (default)| any            | medium |
 * | false           | false         | false (default)| medium |
 * | false           | false         | true           | low    |
 */
export function riskOf(hints: ToolHints | undefined): Risk {
  if (hints?.destructiveHint !== false) return 'high';
  if (hints.openWorldHint !== false) return 'medium';
  return hints.idempotentHint === true ? 'low' : 'medium';
}

/** MCP: a tool is read-only only when it says so (`readOnlyHint` defaults to false). */
export function isReadOnly(hints: ToolHints | undefined): boolean {
  return hints?.readOnlyHint === true;
}
