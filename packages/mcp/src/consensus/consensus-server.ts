import {
  type CallToolResult,
  fromJsonSchema,
  McpServer,
  type McpServerFactory,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { ConsensusError, type PyObject } from '@parley/consensus';
import { sentence, toolError, unexpectedError } from '../tool-result.js';
import { PACKAGE_VERSION } from '../version.js';
import {
  CHECK_PARTY_DESCRIPTION,
  CHECK_PARTY_INPUT,
  CHECK_PARTY_TOOL,
  type CheckPartyArguments,
  checkPartyTool,
} from './check-party-tool.js';
import {
  DECIDE_DESCRIPTION,
  DECIDE_INPUT,
  DECIDE_TOOL,
  type DecideArguments,
  decideTool,
} from './decide-tool.js';
import type { RawArguments } from './raw-arguments.js';
import {
  VERIFY_RECEIPT_DESCRIPTION,
  VERIFY_RECEIPT_INPUT,
  VERIFY_RECEIPT_TOOL,
  type VerifyReceiptArguments,
  verifyReceiptTool,
} from './verify-receipt-tool.js';

/** The server name hosts show. */
export const CONSENSUS_SERVER_NAME = 'parley-consensus';
/** Tool arguments larger than this many array items and object members are refused. */
const MAX_TOOL_INPUT_ELEMENTS = 500_000;

/** Options of the consensus MCP server. */
export interface ConsensusMcpOptions {
  /** The hosts' own argument text, when the transport taps it (stdio). */
  rawArguments?: RawArguments;
  /** Unexpected failures (never shown to the host); default: stderr. */
  onError?: (error: Error) => void;
  /** The version hosts see; default the package version. */
  version?: string;
}

/**
 * The consensus tools of the parley-consensus README as an MCP server factory: parley_decide,
 * parley_verify_receipt and parley_check_party, with the same inputs and outputs. One factory
 * serves both MCP eras; pass it to serveMcpOverStdio or serveMcpOverHttp.
 */
export function createConsensusMcpServer(options: ConsensusMcpOptions = {}): McpServerFactory {
  const report =
    options.onError ??
    ((error: Error) => process.stderr.write(`parley consensus-mcp: ${error.message}\n`));
  const run =
    <A>(tool: string, body: (args: A, raw: PyObject | undefined) => CallToolResult) =>
    (args: A, ctx: ServerContext): CallToolResult => {
      const raw = options.rawArguments?.take(ctx.mcpReq.id, tool);
      try {
        return body(args, raw);
      } catch (error) {
        if (error instanceof ConsensusError) return toolError(sentence(error.message));
        return unexpectedError(error, report);
      }
    };
  return () => {
    const server = new McpServer(
      { name: CONSENSUS_SERVER_NAME, version: options.version ?? PACKAGE_VERSION },
      { capabilities: { tools: {} }, maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS },
    );
    server.registerTool(
      DECIDE_TOOL,
      {
        title: 'Decide by max-min over red lines',
        description: DECIDE_DESCRIPTION,
        inputSchema: fromJsonSchema<DecideArguments>(DECIDE_INPUT),
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      run(DECIDE_TOOL, decideTool),
    );
    server.registerTool(
      VERIFY_RECEIPT_TOOL,
      {
        title: 'Verify a decision receipt',
        description: VERIFY_RECEIPT_DESCRIPTION,
        inputSchema: fromJsonSchema<VerifyReceiptArguments>(VERIFY_RECEIPT_INPUT),
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      run(VERIFY_RECEIPT_TOOL, verifyReceiptTool),
    );
    server.registerTool(
      CHECK_PARTY_TOOL,
      {
        title: "Check one party's red lines",
        description: CHECK_PARTY_DESCRIPTION,
        inputSchema: fromJsonSchema<CheckPartyArguments>(CHECK_PARTY_INPUT),
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      run(CHECK_PARTY_TOOL, checkPartyTool),
    );
    return server;
  };
}
