/** A static server on 127.0.0.1 (a free port) for files held in memory. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StaticFile {
  type: string;
  body: string;
}

export interface StaticServer {
  /** The origin, e.g. http://127.0.0.1:41234 */
  origin: string;
  close(): Promise<void>;
}

export async function serveFiles(
  files: Readonly<Record<string, StaticFile>>,
): Promise<StaticServer> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const file = Object.hasOwn(files, path) ? files[path] : undefined;
    if (request.method !== 'GET' || file === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response
      .writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' })
      .end(file.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
