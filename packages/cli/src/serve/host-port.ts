import { CliError } from '../cli-error.js';

/** `HOST:PORT` (`127.0.0.1:7447`, `[::1]:0`, `:7447` for 127.0.0.1); port 0 picks a free one. */
export function parseHostPort(text: string, flag: string): { host: string; port: number } {
  const colon = text.lastIndexOf(':');
  const host = colon === -1 ? '' : text.slice(0, colon);
  const port = colon === -1 ? '' : text.slice(colon + 1);
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65_535) {
    throw new CliError(`${flag} takes HOST:PORT with a port from 0 to 65535 (got "${text}")`);
  }
  return { host: host === '' ? '127.0.0.1' : host, port: Number(port) };
}

/** The authority of a URL: IPv6 hosts in brackets. */
export function authority(host: string, port: number): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return `${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
}
