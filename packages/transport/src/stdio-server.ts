import type { Readable, Writable } from 'node:stream';
import { ConnectionSet } from './connection-set.js';
import type { FrameHandler } from './handler.js';
import { resolveLimits, type ServerLimits } from './limits.js';
import type { ConnectionStreams } from './served-connection.js';
import {
  type ErrorReporter,
  type ParleyServer,
  type RefusalReporter,
  reportToStderr,
} from './server.js';

/** Options of a stdio server. */
export interface StdioServeOptions {
  /** Defaults to process.stdin. */
  input?: Readable;
  /** Defaults to process.stdout, which is never ended (Node keeps it open). */
  output?: Writable;
  limits?: Partial<ServerLimits>;
  onError?: ErrorReporter;
  onRefused?: RefusalReporter;
}

/**
 * §2.3 `stdio:`: serves a FrameHandler on this process's stdin and stdout (one connection). It
 * ends when stdin ends and every reply is written; stdout then carries nothing else. The idle
 * timeout is off by default: the parent process owns the connection's life.
 */
export function serveStdio(handler: FrameHandler, options: StdioServeOptions = {}): ParleyServer {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const limits = resolveLimits({ maxConnections: 1, idleTimeout: 0, ...options.limits });
  const connections = new ConnectionSet(
    handler,
    limits,
    options.onError ?? reportToStderr,
    options.onRefused,
  );
  let goneListener: (() => void) | undefined;
  let gone = false;
  const markGone = (): void => {
    if (gone) return;
    gone = true;
    input.destroy();
    goneListener?.();
  };
  const streams: ConnectionStreams = {
    input,
    output,
    peer: 'stdio',
    end: () => {
      input.pause();
      if (output === process.stdout || output === process.stderr) output.write('', markGone);
      else output.end(markGone);
    },
    destroy: markGone,
    onGone: (listener) => {
      goneListener = listener;
    },
  };
  connections.add(streams);
  return {
    address: 'stdio:',
    get connections() {
      return connections.size;
    },
    close: (closeOptions = {}) => connections.close(closeOptions.deadline),
  };
}
