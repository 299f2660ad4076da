export { keptResult } from './calls/kept-result.js';
export { NotConnectedError } from './calls/send-once.js';
export { stableJson } from './calls/stable-json.js';
export type { CallAction } from './capabilities/call-capability.js';
export type { SkippedTool } from './capabilities/prepared-tool.js';
export {
  checkGatewayConfig,
  DEFAULT_RESULT_LIMIT,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_UNDO_WINDOW,
  type GatewayConfig,
  type GatewaySettings,
  loadGatewayConfig,
  type ToolConfig,
} from './config/gateway-config.js';
export {
  describeTarget,
  McpConnection,
  type McpConnectionOptions,
  type McpTarget,
} from './connection/mcp-connection.js';
export { GatewayError } from './gateway-error.js';
export {
  isPresetName,
  PRESET_NAMES,
  type PresetName,
  presetForServer,
  presetPath,
} from './presets.js';
export { compactParams } from './schema/compact-schema.js';
export {
  type McpGateway,
  type McpGatewayOptions,
  type ServedTool,
  serviceFromMcp,
} from './service-from-mcp.js';
export { isReadOnly, riskOf, type ToolHints } from './tools/risk-table.js';
export { definitionDigest } from './tools/tool-catalog.js';
export type { ToolClient } from './tools/tool-client.js';
