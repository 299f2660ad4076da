import type { Readable, Writable } from 'node:stream';
import { type HttpEndpoint, serveMcpOverHttp } from '../serve/http.js';
import { type RunningMcpServer, serveMcpOverStdio, stderrReporter } from '../serve/stdio.js';
import { createConsensusMcpServer } from './consensus-server.js';
import { RawArguments } from './raw-arguments.js';

/** Where the consensus MCP server runs: stdio (the default) or Streamable HTTP. */
export interface ServeConsensusOptions {
  /** Serve Streamable HTTP here instead of stdio. */
  http?: HttpEndpoint;
  /** stdio: streams other than process.stdin / process.stdout. */
  input?: Readable;
  output?: Writable;
  onError?: (error: Error) => void;
}

/**
 * Runs the consensus MCP server (`parley consensus-mcp`). Over stdio the hosts' argument text is
 * read with Python's number typing, so a spec hashes exactly as `parley decide --json` hashes the
 * same text.
 */
export async function serveConsensusMcp(
  options: ServeConsensusOptions = {},
): Promise<RunningMcpServer & { url?: string }> {
  const onError = options.onError ?? stderrReporter('parley consensus-mcp');
  if (options.http !== undefined) {
    return serveMcpOverHttp(createConsensusMcpServer({ onError }), { ...options.http, onError });
  }
  const rawArguments = new RawArguments();
  const input = (options.input ?? process.stdin).pipe(rawArguments.tap());
  return serveMcpOverStdio(createConsensusMcpServer({ rawArguments, onError }), {
    input,
    ...(options.output === undefined ? {} : { output: options.output }),
    onError,
  });
}
