import type { ConnectionOptions } from 'node:tls';
import { dialProcess } from './dial-process.js';
import { dialStream } from './dial-stream.js';
import type { FrameConnection, FrameReceiver } from './frame-connection.js';
import { HttpFrameConnection } from './http-connection.js';
import { parseParleyUrl } from './parley-url.js';
import { TransportError } from './transport-error.js';

/** How long dial waits for a connection, TLS handshake or process start by default (ms). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** Options of dial; each transport reads the ones that concern it. */
export interface DialOptions {
  /** Receives incoming frames and the connection's end. */
  receiver: FrameReceiver;
  /** ms to wait for the connection; default DEFAULT_CONNECT_TIMEOUT_MS. */
  connectTimeout?: number;
  /** parleys:// and https://: TLS settings (ca for a private CA, client cert, servername…). */
  tls?: ConnectionOptions;
  /** stdio:: the service command and its arguments. */
  command?: string;
  args?: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  stderr?: 'inherit' | 'ignore';
  /** http(s)://: extra request headers. */
  headers?: Record<string, string>;
}

/**
 * §2.3: connects to a service at `parley://host[:port]`, `parleys://host[:port]`, `stdio:`
 * (starting `options.command`) or an `http(s)://` bridge endpoint. Rejects with TransportError
 * (`bad_url`, `unreachable`, `tls`, `timeout`).
 */
export async function dial(url: string, options: DialOptions): Promise<FrameConnection> {
  const target = parseParleyUrl(url);
  const connectTimeout = options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
  switch (target.scheme) {
    case 'parley':
    case 'parleys':
      if (target.port === 0) {
        throw new TransportError(
          'bad_url',
          `bad Parley URL ${JSON.stringify(url)}: port 0 cannot be dialled`,
        );
      }
      return dialStream(
        {
          host: target.host,
          port: target.port,
          connectTimeout,
          ...(target.scheme === 'parleys' ? { tls: options.tls ?? {} } : {}),
        },
        options.receiver,
      );
    case 'stdio':
      if (options.command === undefined || options.command === '') {
        throw new TransportError('bad_url', 'stdio: needs the service command in options.command');
      }
      return dialProcess(
        {
          command: options.command,
          connectTimeout,
          ...(options.args === undefined ? {} : { args: options.args }),
          ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
          ...(options.env === undefined ? {} : { env: options.env }),
          ...(options.stderr === undefined ? {} : { stderr: options.stderr }),
        },
        options.receiver,
      );
    case 'http':
    case 'https':
      return new HttpFrameConnection(
        {
          url: target.url,
          ...(options.tls === undefined ? {} : { tls: options.tls }),
          ...(options.headers === undefined ? {} : { headers: options.headers }),
        },
        options.receiver,
      );
  }
}
