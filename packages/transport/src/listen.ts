import type { Readable, Writable } from 'node:stream';
import type { TlsOptions } from 'node:tls';
import type { BrowserPolicyOptions } from './browser-policy.js';
import type { FrameHandler } from './handler.js';
import type { ReadinessProbe } from './health.js';
import { listenHttp } from './http-server.js';
import type { ServerLimits } from './limits.js';
import { parseParleyUrl } from './parley-url.js';
import type { ErrorReporter, ParleyServer, RefusalReporter } from './server.js';
import { serveStdio } from './stdio-server.js';
import { listenStream } from './stream-server.js';
import { TransportError } from './transport-error.js';

/** Options of listen; each transport reads the ones that concern it. */
export interface ListenOptions {
  /** parleys:// and https://: the server's TLS settings, cert and key at least. */
  tls?: TlsOptions;
  limits?: Partial<ServerLimits>;
  /** http(s)://: host names and CORS origins besides the defaults (see BrowserPolicy). */
  browser?: BrowserPolicyOptions;
  /** http(s)://: what GET /readyz checks (health.ts). */
  ready?: ReadinessProbe;
  /** Receives errors that must not reach peers (handler rejections); default: stderr. */
  onError?: ErrorReporter;
  /** Told of every frame or connection the transport refuses itself (metrics). */
  onRefused?: RefusalReporter;
  /** stdio:: streams other than process.stdin and process.stdout. */
  input?: Readable;
  output?: Writable;
}

/**
 * §2.3: serves a FrameHandler at `parley://host[:port]`, `parleys://host[:port]` (needs
 * `options.tls`), `stdio:` (this process's stdin/stdout) or `http(s)://host[:port][/path]`
 * (the §2.4 bridge, endpoint at the path). Port 0 picks a free port; `address` tells which.
 */
export async function listen(
  url: string,
  handler: FrameHandler,
  options: ListenOptions = {},
): Promise<ParleyServer> {
  const target = parseParleyUrl(url);
  const common = {
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
    ...(options.onRefused === undefined ? {} : { onRefused: options.onRefused }),
  };
  const needTls = (scheme: string): TlsOptions => {
    if (options.tls === undefined) {
      throw new TransportError('tls', `${scheme} needs options.tls with a certificate and key`);
    }
    return options.tls;
  };
  switch (target.scheme) {
    case 'parley':
      return listenStream({ host: target.host, port: target.port, ...common }, handler);
    case 'parleys':
      return listenStream(
        { host: target.host, port: target.port, tls: needTls('parleys://'), ...common },
        handler,
      );
    case 'stdio':
      return serveStdio(handler, {
        ...common,
        ...(options.input === undefined ? {} : { input: options.input }),
        ...(options.output === undefined ? {} : { output: options.output }),
      });
    case 'http':
    case 'https': {
      const { url: endpoint } = target;
      if (endpoint.search !== '') {
        throw new TransportError(
          'bad_url',
          `bad Parley URL ${JSON.stringify(url)}: a listening endpoint has no query`,
        );
      }
      return listenHttp(
        {
          host: endpoint.hostname.replace(/^\[(.*)\]$/, '$1'),
          port:
            endpoint.port === '' ? (target.scheme === 'http' ? 80 : 443) : Number(endpoint.port),
          path: endpoint.pathname,
          ...(target.scheme === 'https' ? { tls: needTls('https://') } : {}),
          ...(options.browser === undefined ? {} : { browser: options.browser }),
          ...(options.ready === undefined ? {} : { ready: options.ready }),
          ...common,
        },
        handler,
      );
    }
  }
}
