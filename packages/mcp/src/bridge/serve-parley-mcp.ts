import type { Readable, Writable } from 'node:stream';
import { type HttpEndpoint, serveMcpOverHttp } from '../serve/http.js';
import { type RunningMcpServer, serveMcpOverStdio, stderrReporter } from '../serve/stdio.js';
import type { ParleyMcpOptions } from './bridge-options.js';
import { createParleyMcpServer } from './parley-mcp-server.js';

/** Where the bridge runs: stdio (the default) or Streamable HTTP. */
export interface ServeParleyMcpOptions extends ParleyMcpOptions {
  /** Serve Streamable HTTP here (`--http HOST:PORT`) instead of stdio. */
  http?: HttpEndpoint;
  /** stdio: streams other than process.stdin / process.stdout. */
  input?: Readable;
  output?: Writable;
}

/**
 * Runs `parley mcp URL…`: the bridge over stdio, or over Streamable HTTP with `http`. Over
 * stdio it stops when the host closes stdin; the service connections are closed with it.
 */
export async function serveParleyMcp(
  options: ServeParleyMcpOptions,
): Promise<RunningMcpServer & { url?: string }> {
  const onError = options.onError ?? stderrReporter('parley mcp');
  const { http, input, output, ...bridgeOptions } = options;
  const mcp = await createParleyMcpServer({ ...bridgeOptions, onError });
  const running =
    http === undefined
      ? serveMcpOverStdio(mcp.factory, {
          onError,
          ...(input === undefined ? {} : { input }),
          ...(output === undefined ? {} : { output }),
        })
      : await serveMcpOverHttp(mcp.factory, { ...http, onError });
  void running.closed.then(() => mcp.close());
  return {
    ...running,
    async close() {
      await running.close();
      await mcp.close();
    },
  };
}
