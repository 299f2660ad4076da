import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request exactly as it arrived: `requestLine` is the method and the raw request-target. */
export type Arrived = {
  requestLine: string;
  headers: IncomingHttpHeaders;
  body: string;
};

/** What the script answers: a status, its reason phrase, headers and a body text. */
export type Answer = {
  status: number;
  statusText?: string;
  headers?: Record<string, string>;
  body?: string;
};

/**
 * An HTTP server on 127.0.0.1 whose answers a test scripts, recording the request line of every
 * request as it arrived (`DELETE /projects/p1/` is seen as sent, before any router resolves it).
 */
export class ScriptedUpstream {
  readonly arrived: Arrived[] = [];
  #server: Server | undefined;
  origin = '';

  constructor(readonly answer: (request: Arrived) => Answer) {}

  async start(): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request: Arrived = {
          requestLine: `${req.method} ${req.url}`,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.arrived.push(request);
        const answer = this.answer(request);
        res.writeHead(answer.status, answer.statusText ?? '', answer.headers ?? {});
        res.end(answer.body ?? '');
      });
    });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.origin;
  }

  /** The request lines that arrived, in order. */
  lines(): string[] {
    return this.arrived.map((r) => r.requestLine);
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
