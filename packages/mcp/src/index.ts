export type { ParleyMcpOptions } from './bridge/bridge-options.js';
export {
  ASK_TOOL,
  COMMIT_TOOL,
  EXPAND_TOOL,
  INTENT_TOOL,
  UNDO_TOOL,
} from './bridge/bridge-tools.js';
export { type CapabilityTool, capabilityTools } from './bridge/capability-tools.js';
export { compactToJsonSchema, type JsonSchemaObject } from './bridge/compact-json-schema.js';
export {
  type ConsentInbox,
  type ConsentRequest,
  DEFAULT_CONSENT_INBOX,
} from './bridge/consent-inbox.js';
export { renderConsentView } from './bridge/consent-view.js';
export {
  type AskArguments,
  type CommitArguments,
  type CommitStep,
  type ExpandArguments,
  type IntentArguments,
  ParleyBridge,
  type UndoArguments,
} from './bridge/parley-bridge.js';
export {
  BRIDGE_SERVER_NAME,
  createParleyMcpServer,
  type ParleyMcp,
} from './bridge/parley-mcp-server.js';
export { type ServeParleyMcpOptions, serveParleyMcp } from './bridge/serve-parley-mcp.js';
export { CHECK_PARTY_TOOL } from './consensus/check-party-tool.js';
export {
  CONSENSUS_SERVER_NAME,
  type ConsensusMcpOptions,
  createConsensusMcpServer,
} from './consensus/consensus-server.js';
export { DECIDE_TOOL } from './consensus/decide-tool.js';
export { RawArguments } from './consensus/raw-arguments.js';
export { type ServeConsensusOptions, serveConsensusMcp } from './consensus/serve-consensus.js';
export { VERIFY_RECEIPT_TOOL } from './consensus/verify-receipt-tool.js';
export { SERVED_LEGACY_VERSIONS, SERVED_MODERN_VERSIONS } from './era/served-versions.js';
export { VersionGuardTransport } from './era/version-guard.js';
export { McpUsageError } from './mcp-usage-error.js';
export {
  BearerCheck,
  type BearerVerdict,
  bearerTokenProblem,
  MIN_BEARER_TOKEN_LENGTH,
  newBearerToken,
} from './serve/bearer-token.js';
export {
  type BearerTokenOption,
  type HttpEndpoint,
  type HttpOptions,
  type RunningHttpMcpServer,
  serveMcpOverHttp,
} from './serve/http.js';
export {
  type RunningMcpServer,
  type StdioOptions,
  serveMcpOverStdio,
  stderrReporter,
} from './serve/stdio.js';
export { PACKAGE_VERSION } from './version.js';
