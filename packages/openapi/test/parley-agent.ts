import { connect, type ParleyClient, Wallet } from '@parley/client';
import { encodeGrant, issueGrant, type KeyPair } from '@parley/protocol';
import type { Service } from '@parley/service';
import { listen, type ParleyServer } from '@parley/transport';

/** A service listening on a free TCP port, and an agent connected to it with a grant. */
export type ServedAgent = { client: ParleyClient; server: ParleyServer; close(): Promise<void> };

/**
 * Serves `service` on parley://127.0.0.1:0 and connects an agent whose wallet holds a grant from
 * `principal` for `can` at that service.
 */
export async function serveWithAgent(
  service: Service,
  principal: KeyPair,
  can: string[],
): Promise<ServedAgent> {
  const server = await listen('parley://127.0.0.1:0', service);
  const wallet = await Wallet.generate();
  wallet.add(
    encodeGrant(
      await issueGrant(principal, {
        sub: wallet.publicKey,
        caveats: [{ svc: [service.info.id] }, { can }],
      }),
    ),
  );
  const client = await connect(server.address, { wallet });
  await client.hello();
  return {
    client,
    server,
    async close() {
      await client.close();
      await server.close();
      await service.close();
    },
  };
}
