import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toWebRequest, writeWebResponse } from '@parley/transport';

/** A real HTTP server on 127.0.0.1 for a web-standard handler; its origin and how to stop it. */
export async function serveHandler(
  handler: (request: Request) => Promise<Response>,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const aborted = new AbortController();
    res.once('close', () => aborted.abort());
    const web = await toWebRequest(req, {
      origin: `http://${req.headers.host}`,
      maxBodyBytes: 2_000_000,
      signal: aborted.signal,
    });
    if (web === undefined) {
      res.writeHead(413).end();
      return;
    }
    await writeWebResponse(res, await handler(web));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One call of the cases API with a link; the status and the body as text. */
export async function call(
  origin: string,
  route: string,
  link: string | null,
  body?: unknown,
  query = '',
  // biome-ignore lint/suspicious/noExplicitAny: the tests read answers by their documented shape.
): Promise<{ status: number; text: string; json: () => any }> {
  const token = link === null ? null : (link.split('#t=').pop() as string);
  const response = await fetch(`${origin}/cases/api/${route}${query}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const buffer = Buffer.from(await response.arrayBuffer());
  const text = buffer.toString('latin1');
  return { status: response.status, text, json: () => JSON.parse(buffer.toString('utf8')) };
}
