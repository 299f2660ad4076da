import { listen, type ParleyServer } from '@parley/transport';
import { nodeCommand } from '../../transport/test/fixtures/node-child.js';
import { makeTestCertificate } from '../../transport/test/fixtures/tls-cert.js';
import { type ConnectOptions, connect, type ParleyClient } from '../src/index.js';
import { ShopHandler } from './fixtures/shop-handler.js';

/** A shop reachable over one transport, and how to connect a client to it. */
export interface ShopFixture {
  /** The in-process handler (undefined for stdio, where the shop is a child process). */
  handler: ShopHandler | undefined;
  connect(options?: ConnectOptions): Promise<ParleyClient>;
  stop(): Promise<void>;
}

/** One fixture per transport of §2.3. */
export const SHOP_TRANSPORTS: Record<string, () => Promise<ShopFixture>> = {
  TCP: async () => inProcess('parley://127.0.0.1:0'),
  TLS: async () => {
    const certificate = makeTestCertificate();
    return inProcess(
      'parleys://127.0.0.1:0',
      { tls: certificate },
      { tls: { ca: certificate.cert } },
    );
  },
  HTTP: async () => inProcess('http://127.0.0.1:0/parley'),
  stdio: async () => {
    const service = nodeCommand(new URL('./fixtures/stdio-shop.ts', import.meta.url));
    return {
      handler: undefined,
      connect: (options = {}) => connect('stdio:', { ...service, ...options }),
      stop: async () => undefined,
    };
  },
};

async function inProcess(
  url: string,
  listenOptions: Parameters<typeof listen>[2] = {},
  connectOptions: ConnectOptions = {},
): Promise<ShopFixture> {
  const handler = new ShopHandler();
  const server: ParleyServer = await listen(url, handler, listenOptions);
  return {
    handler,
    connect: (options = {}) => connect(server.address, { ...connectOptions, ...options }),
    stop: () => server.close({ deadline: 500 }),
  };
}
