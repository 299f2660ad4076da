import {
  type CallToolResult,
  ProtocolError,
  type RequestOptions,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import { type JsonObject, ParleyError } from '@parley/protocol';
import { OutcomeUnknownError } from '@parley/service';
import type { ToolClient } from '../tools/tool-client.js';

/** JSON-RPC 2.0: the server says the params are invalid. */
const INVALID_PARAMS = -32602;
/** How many times its timeout a call that keeps reporting progress may run in all. */
const PROGRESS_EXTENSIONS = 10;
/** Seconds after which a call refused for want of a connection may be tried again. */
const RECONNECT_RETRY_SECONDS = 5;
/** Socket errors of a connection that was never made: nothing was sent (Streamable HTTP). */
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** The MCP server is not connected now (it exited and is being restarted): nothing was sent. */
export class NotConnectedError extends Error {
  override readonly name = 'NotConnectedError';
}

/** How a call is made: its timeout, and where its progress notifications go. */
export type CallOptions = {
  timeoutMs: number;
  progress?: ((message: string, fraction?: number) => void) | undefined;
};

/**
 * §4.4, §4.5: sends a committed call (or an UNDO's inverse call) that must never happen twice.
 * A call that surely never left (no connection) is `unavailable`, to retry; one the server
 * refused with a JSON-RPC error did not happen; one whose answer was lost (a timeout, the server
 * exiting meanwhile) throws OutcomeUnknownError, so the commit or undo stays in doubt for the
 * operator (`parley doubt`) and is never sent again. A tool error comes back as a result.
 */
export async function sendOnce(
  client: ToolClient,
  tool: string,
  args: JsonObject,
  options: CallOptions,
): Promise<CallToolResult> {
  try {
    return await client.callTool({ name: tool, arguments: args }, requestOptions(tool, options));
  } catch (error) {
    const refused = refusal(error, tool);
    if (refused !== undefined) throw refused;
    throw new OutcomeUnknownError(
      `the MCP server did not answer the call to ${tool} (${reasonOf(error)}); it may have been carried out, so it will not be sent again`,
      { cause: error },
    );
  }
}

/** §4.2: a read (an ASK's tool, or a precondition); a failure is `unavailable`, to retry. */
export async function callRead(
  client: ToolClient,
  tool: string,
  args: JsonObject,
  options: CallOptions,
): Promise<CallToolResult> {
  try {
    return await client.callTool({ name: tool, arguments: args }, requestOptions(tool, options));
  } catch (error) {
    throw (
      refusal(error, tool) ??
      new ParleyError(
        'unavailable',
        `the MCP server did not answer ${tool} (${reasonOf(error)}); try again`,
        { retry: RECONNECT_RETRY_SECONDS, cause: error },
      )
    );
  }
}

/** A failure after which the call surely did not happen, as the error for the peer. */
function refusal(error: unknown, tool: string): ParleyError | undefined {
  if (error instanceof NotConnectedError || isUnsent(error)) {
    return new ParleyError(
      'unavailable',
      `the MCP server is not connected now (${reasonOf(error)}); nothing was sent, try again`,
      { retry: RECONNECT_RETRY_SECONDS },
    );
  }
  if (ProtocolError.isInstance(error)) {
    const message = oneLine(error.message);
    return error.code === INVALID_PARAMS
      ? new ParleyError(
          'invalid_params',
          `the MCP server refused the arguments of ${tool}: ${message}`,
        )
      : new ParleyError('unavailable', `the MCP server refused the call to ${tool}: ${message}`);
  }
  return undefined;
}

/**
 * Whether a failure says the call never reached the server: no connection, a Streamable HTTP
 * connection that was never made, or an HTTP 4xx answer to the POST (an unknown session, a
 * refused request: the tool was not called).
 */
export function isUnsent(error: unknown): boolean {
  if (SdkError.isInstance(error)) {
    if (
      error.code === SdkErrorCode.NotConnected ||
      error.code === SdkErrorCode.NotInitialized ||
      error.code === SdkErrorCode.SendFailed
    ) {
      return true;
    }
    const status = (error.data as { status?: unknown } | undefined)?.status;
    return typeof status === 'number' && status >= 400 && status < 500;
  }
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && NEVER_CONNECTED.has(code);
}

function requestOptions(tool: string, options: CallOptions): RequestOptions {
  const { progress } = options;
  return {
    timeout: options.timeoutMs,
    resetTimeoutOnProgress: true,
    maxTotalTimeout: options.timeoutMs * PROGRESS_EXTENSIONS,
    ...(progress === undefined
      ? {}
      : {
          onprogress: ({ progress: done, total, message }) => {
            const fraction = total !== undefined && total > 0 ? done / total : undefined;
            progress(
              message ?? `${tool}: ${done}${total === undefined ? '' : ` of ${total}`}`,
              fraction,
            );
          },
        }),
  };
}

function reasonOf(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 200 ? line : `${line.slice(0, 199)}…`;
}
