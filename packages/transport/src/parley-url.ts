import { isIPv6 } from 'node:net';
import { TransportError } from './transport-error.js';

/** §2.3: the default port of `parley://`. */
export const DEFAULT_TCP_PORT = 7447;
/** §2.3: the default port of `parleys://`. */
export const DEFAULT_TLS_PORT = 7448;

/** §2.3: a parsed transport URL. */
export type ParleyUrl =
  | { scheme: 'parley' | 'parleys'; host: string; port: number }
  | { scheme: 'stdio' }
  | { scheme: 'http' | 'https'; url: URL };

const STREAM_URL = /^(parleys?):\/\/([^/?#]*)(.*)$/;
const PORT = /^[0-9]{1,5}$/;
const HOSTNAME = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;
const IPV6 = /^\[([0-9A-Fa-f:.]+)\]$/;
const MAX_PORT = 65_535;

const badUrl = (url: string, why: string): TransportError =>
  new TransportError('bad_url', `bad Parley URL ${JSON.stringify(url)}: ${why}`);

/**
 * §2.3: parses `parley://host[:port]`, `parleys://host[:port]`, `stdio:`, `http://…` or
 * `https://…`. Port 0 is accepted (a listener then picks a free port). Throws TransportError
 * `bad_url` naming what is wrong.
 */
export function parseParleyUrl(url: string): ParleyUrl {
  if (typeof url !== 'string') throw badUrl(String(url), 'a URL must be a string');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'parley':
    case 'parleys':
      return parseStreamUrl(url);
    case 'stdio':
      if (url.length !== 'stdio:'.length) {
        throw badUrl(url, 'write "stdio:" alone; the command goes in the options');
      }
      return { scheme: 'stdio' };
    case 'http':
    case 'https':
      return parseHttpUrl(url, scheme);
    case undefined:
      throw badUrl(url, 'it has no scheme; use parley://, parleys://, stdio: or http(s)://');
    default:
      throw badUrl(
        url,
        `unknown scheme "${scheme}:"; use parley://, parleys://, stdio: or http(s)://`,
      );
  }
}

function parseStreamUrl(url: string): ParleyUrl {
  const match = STREAM_URL.exec(url.replace(/^[A-Za-z]+/, (s) => s.toLowerCase()));
  if (match === null) throw badUrl(url, 'expected scheme://host[:port]');
  const scheme = match[1] as 'parley' | 'parleys';
  const authority = match[2] ?? '';
  const rest = match[3] ?? '';
  if (rest !== '' && rest !== '/') throw badUrl(url, 'a stream URL has no path, query or fragment');
  if (authority.includes('@')) throw badUrl(url, 'a stream URL has no user info');
  const { host, port } = splitAuthority(url, authority);
  const defaultPort = scheme === 'parley' ? DEFAULT_TCP_PORT : DEFAULT_TLS_PORT;
  return { scheme, host, port: port ?? defaultPort };
}

function splitAuthority(url: string, authority: string): { host: string; port?: number } {
  if (authority === '') throw badUrl(url, 'the host is missing');
  let hostPart = authority;
  let portPart: string | undefined;
  const close = authority.lastIndexOf(']');
  const colon = authority.lastIndexOf(':');
  if (colon > close) {
    hostPart = authority.slice(0, colon);
    portPart = authority.slice(colon + 1);
  }
  let host: string;
  const v6 = IPV6.exec(hostPart);
  if (v6 !== null && isIPv6(v6[1] as string)) host = v6[1] as string;
  else if (HOSTNAME.test(hostPart)) host = hostPart.toLowerCase();
  else if (hostPart === '') throw badUrl(url, 'the host is missing');
  else throw badUrl(url, `"${hostPart}" is not a host name or IP address`);
  if (portPart === undefined) return { host };
  if (!PORT.test(portPart) || Number(portPart) > MAX_PORT) {
    throw badUrl(url, `the port must be an integer from 0 to ${MAX_PORT}`);
  }
  return { host, port: Number(portPart) };
}

function parseHttpUrl(url: string, scheme: 'http' | 'https'): ParleyUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badUrl(url, 'it is not a valid http(s) URL');
  }
  if (parsed.hostname === '') throw badUrl(url, 'the host is missing');
  if (parsed.username !== '' || parsed.password !== '') {
    throw badUrl(url, 'put credentials in headers, not in the URL');
  }
  if (parsed.hash !== '') throw badUrl(url, 'an endpoint URL has no fragment');
  return { scheme, url: parsed };
}

/** The URL text of a stream endpoint, bracketing IPv6 hosts. */
export function formatStreamUrl(scheme: 'parley' | 'parleys', host: string, port: number): string {
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
