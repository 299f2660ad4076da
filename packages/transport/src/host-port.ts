import { TransportError } from './transport-error.js';

/** Where a server listens, or a peer is reached: a host name or address, and a port. */
export interface HostPort {
  host: string;
  port: number;
}

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]*):(\d{1,5})$/;

/**
 * The one grammar of every HOST:PORT a Parley command or server takes: `127.0.0.1:7447`,
 * `localhost:0`, `[::1]:7447` (IPv6 in brackets), `:7447` (127.0.0.1); port 0 picks a free port.
 * Throws TransportError `bad_url` with one sentence for anything else.
 */
export function parseHostPort(text: string): HostPort {
  const match = HOST_PORT.exec(text);
  const port = match === null ? Number.NaN : Number(match[2]);
  if (match === null || port > 65_535) {
    throw new TransportError(
      'bad_url',
      `expected HOST:PORT with a port from 0 to 65535 (127.0.0.1:7447, [::1]:7447, or :7447 for 127.0.0.1), got ${JSON.stringify(text)}`,
    );
  }
  const host = (match[1] as string).replace(/^\[(.*)\]$/, '$1');
  return { host: host === '' ? '127.0.0.1' : host, port };
}

/** `host:port` for a URL's authority: an IPv6 host in brackets. */
export function hostPortText({ host, port }: HostPort): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
