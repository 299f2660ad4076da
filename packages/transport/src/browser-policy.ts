import { TransportError } from './transport-error.js';

/**
 * Which HTTP requests a Parley HTTP server answers, given that every web page the user opens can
 * send requests to 127.0.0.1. One rule for the HTTP bridge (Node server and web-standard
 * handler) and the MCP Streamable HTTP server:
 *
 * - **Host** must name this server: an IP literal, `localhost` (or a `*.localhost` name, which
 *   browsers resolve to loopback only, RFC 6761), the name the server listens on, or a name in
 *   `allowedHosts`. A DNS name that merely resolves here (DNS rebinding: `evil.example` pointed
 *   at 127.0.0.1) is refused, so a page on that name cannot read the answers.
 * - **Origin**, when a browser sends one, must be this server's own origin (a page it served)
 *   or one of `cors`; any other page is refused before anything runs. A request without Origin
 *   is not from a page's script (curl, agents) and passes.
 * - **CORS**: an origin in `cors` gets `Access-Control-Allow-Origin` on its answers and a
 *   preflight answer (with `Access-Control-Allow-Private-Network` for Chrome's local-network
 *   checks); no origin ever gets a wildcard.
 */
export interface BrowserPolicyOptions {
  /**
   * Host names accepted besides IP literals, localhost and the listening name, for example a
   * name in /etc/hosts or a reverse proxy's public name; `"*"` accepts any (a public deployment
   * behind a proxy that checks Host itself).
   */
  allowedHosts?: readonly string[];
  /**
   * Origins (`scheme://host[:port]`) whose pages may call the server, e.g. `http://127.0.0.1:8080`.
   */
  cors?: readonly string[];
}

/** What a server needs to know of a request to judge it. */
export interface BrowserRequest {
  method: string;
  /** How the request reached the server: `http:` or `https:`. */
  protocol: string;
  /** A request header by lower-case name, or null. */
  header(name: string): string | null;
}

/** The judgement on one request. */
export type BrowserVerdict =
  /** Serve it, adding `headers` (CORS) to the answer. */
  | { kind: 'serve'; headers: Record<string, string> }
  /** A CORS preflight from an allowed origin: answer 204 with `headers`. */
  | { kind: 'preflight'; headers: Record<string, string> }
  /** Refuse it: `status` with a one-sentence `message`. */
  | { kind: 'refuse'; status: 400 | 403; message: string };

/** Methods and request headers a page of an allowed origin may use. */
const CORS_METHODS = 'GET, HEAD, POST';
const CORS_HEADERS = 'content-type, accept, authorization, mcp-protocol-version, mcp-session-id';
/** How long a browser may cache a preflight answer (s). */
const PREFLIGHT_MAX_AGE = '600';

/**
 * The hostname of a Host header value as the URL parser reads it (lower case, IPv4 in dotted
 * form, IPv6 in brackets), without port or a final dot; undefined when it is not a host.
 */
function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** Whether a parsed hostname is an IP literal, which no DNS rebinding can produce. */
function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
}

/** An origin in its serialized form (`http://127.0.0.1:8080`), or undefined if it is not one. */
function normalizeOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

/**
 * How many Host values `acceptsHost` remembers its answer for: a client sends the same Host on
 * every request, and parsing it as a URL costs more than the rest of the check. Past it, the
 * remembered answers are forgotten and kept afresh, so no run of distinct Hosts grows memory.
 */
export const REMEMBERED_HOSTS = 64;

/** The Host and Origin rule of a local HTTP server; see BrowserPolicyOptions. */
export class BrowserPolicy {
  readonly #hosts: ReadonlySet<string>;
  readonly #anyHost: boolean;
  readonly #cors: ReadonlySet<string>;
  /** Answers of `acceptsHost` by Host value: a pure function of the value and the options. */
  readonly #judgedHosts = new Map<string, boolean>();

  /** `listenHost` is the name or address the server listens on, if any. */
  constructor(options: BrowserPolicyOptions = {}, listenHost?: string) {
    const hosts = new Set<string>();
    for (const host of [...(options.allowedHosts ?? []), ...(listenHost ? [listenHost] : [])]) {
      if (host === '*') continue;
      const bareIpv6 = host.split(':').length > 2 && !host.startsWith('[');
      const name = hostnameOf(bareIpv6 ? `[${host}]` : host);
      if (name === undefined)
        throw new TransportError('bad_url', `not a host name: ${JSON.stringify(host)}`);
      hosts.add(name);
    }
    this.#hosts = hosts;
    this.#anyHost = options.allowedHosts?.includes('*') === true;
    const cors = new Set<string>();
    for (const origin of options.cors ?? []) {
      const normalized = normalizeOrigin(origin);
      if (normalized === undefined || normalized !== origin.replace(/\/$/, '')) {
        throw new TransportError(
          'bad_url',
          `a CORS origin is scheme://host[:port] with no path, got ${JSON.stringify(origin)}`,
        );
      }
      cors.add(normalized);
    }
    this.#cors = cors;
  }

  /** Whether a Host header names this server. */
  acceptsHost(host: string): boolean {
    if (this.#anyHost) return true;
    const known = this.#judgedHosts.get(host);
    if (known !== undefined) return known;
    const accepted = this.#judgeHost(host);
    if (this.#judgedHosts.size >= REMEMBERED_HOSTS) this.#judgedHosts.clear();
    this.#judgedHosts.set(host, accepted);
    return accepted;
  }

  #judgeHost(host: string): boolean {
    const name = hostnameOf(host);
    if (name === undefined || name === '') return false;
    return (
      isIpLiteral(name) ||
      name === 'localhost' ||
      name.endsWith('.localhost') ||
      this.#hosts.has(name)
    );
  }

  /** Judges one request: refuse it, answer its preflight, or serve it with CORS headers. */
  check(request: BrowserRequest): BrowserVerdict {
    const host = request.header('host');
    if (host === null) return { kind: 'refuse', status: 400, message: 'a Host header is required' };
    if (!this.acceptsHost(host)) {
      return {
        kind: 'refuse',
        status: 403,
        message: `this server does not answer to the host name in "Host: ${host.slice(0, 100)}"; add it to the allowed hosts if it is yours`,
      };
    }
    const origin = request.header('origin');
    if (origin === null) return { kind: 'serve', headers: {} };
    const normalized = normalizeOrigin(origin);
    const own = `${request.protocol}//${host.toLowerCase()}`;
    if (normalized !== undefined && normalized === normalizeOrigin(own)) {
      return { kind: 'serve', headers: {} };
    }
    if (normalized === undefined || !this.#cors.has(normalized)) {
      return {
        kind: 'refuse',
        status: 403,
        message: `pages at ${origin.slice(0, 100)} may not call this server; allow one with --cors ORIGIN`,
      };
    }
    const allow = { 'access-control-allow-origin': normalized, vary: 'Origin' };
    if (request.method === 'OPTIONS' && request.header('access-control-request-method') !== null) {
      return {
        kind: 'preflight',
        headers: {
          ...allow,
          'access-control-allow-methods': CORS_METHODS,
          'access-control-allow-headers': CORS_HEADERS,
          'access-control-max-age': PREFLIGHT_MAX_AGE,
          ...(request.header('access-control-request-private-network') === 'true'
            ? { 'access-control-allow-private-network': 'true' }
            : {}),
        },
      };
    }
    return { kind: 'serve', headers: allow };
  }
}
