import type { Tool } from '@modelcontextprotocol/client';
import type { ParamSchema } from '@parley/protocol';
import { parseSchema } from '@parley/service';
import type { ToolSettings } from '../config/gateway-config.js';
import { type ArgumentCheck, compileSchema } from '../schema/argument-validator.js';
import { compactParams, type JsonSchema } from '../schema/compact-schema.js';
import { isReadOnly } from '../tools/risk-table.js';
import { definitionDigest } from '../tools/tool-catalog.js';

/** Characters of a tool's description kept as its capability's summary. */
const MAX_SUMMARY = 120;

/** A tool ready to be a capability: its params, its full schema check, its kind and settings. */
export type PreparedTool = {
  tool: Tool;
  /** The definition's fingerprint, kept in every proposal made from it. */
  digest: string;
  kind: 'ask' | 'intent';
  summary: string;
  params: ParamSchema;
  check: ArgumentCheck;
  settings: ToolSettings;
};

/** A tool that is not served, and why. */
export type SkippedTool = { tool: string; reason: string };

/**
 * A tool as a capability: compact params (§4.1.1) and the compiled JSON Schema, `ask` when it is
 * read-only (or configured so), else `intent`. A tool hidden by the configuration, or whose
 * schema cannot be compiled or named in compact params, is skipped with the reason.
 */
export function prepareTool(tool: Tool, settings: ToolSettings = {}): PreparedTool | SkippedTool {
  if (settings.hidden === true) return { tool: tool.name, reason: 'hidden by the configuration' };
  const compact = compactParams(tool.inputSchema as JsonSchema);
  if ('skip' in compact) return { tool: tool.name, reason: compact.skip };
  let check: ArgumentCheck;
  try {
    parseSchema(compact.params, tool.name);
    check = compileSchema(tool.inputSchema);
  } catch (error) {
    return { tool: tool.name, reason: (error as Error).message };
  }
  return {
    tool,
    digest: definitionDigest(tool),
    kind: settings.kind ?? (isReadOnly(tool.annotations) ? 'ask' : 'intent'),
    summary: summaryOf(tool),
    params: compact.params,
    check,
    settings,
  };
}

/** The first sentence of the tool's description, else its title, else its name. */
function summaryOf(tool: Tool): string {
  const line = tool.description?.replace(/\s+/g, ' ').trim() ?? '';
  const sentence = (/^.*?[.!?](?=\s|$)/.exec(line)?.[0] ?? line).replace(/\.$/, '');
  const text = sentence !== '' ? sentence : (tool.title ?? tool.name);
  return text.length <= MAX_SUMMARY ? text : `${text.slice(0, MAX_SUMMARY - 1)}…`;
}
