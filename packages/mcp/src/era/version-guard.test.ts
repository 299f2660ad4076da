import {
  InMemoryTransport,
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { VersionGuardTransport } from './version-guard.js';

async function guarded() {
  const [host, server] = InMemoryTransport.createLinkedPair();
  const guard = new VersionGuardTransport(server);
  const passed: JSONRPCMessage[] = [];
  const answered: JSONRPCMessage[] = [];
  guard.onmessage = (message) => passed.push(message);
  host.onmessage = (message) => answered.push(message);
  await guard.start();
  await host.start();
  const request = (id: number, version?: string): JSONRPCMessage => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/list',
    params: version === undefined ? {} : { _meta: { [PROTOCOL_VERSION_META_KEY]: version } },
  });
  return { host, guard, passed, answered, request };
}

describe('VersionGuardTransport', () => {
  it('answers -32022 to every request naming a revision it does not serve', async () => {
    const { host, passed, answered, request } = await guarded();
    await host.send(request(1, '2026-07-28'));
    await host.send(request(2, '2099-01-01'));
    await host.send(request(3, '2026-07-28'));
    await host.send(request(4, '2025-11-25'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(passed.map((m) => ('id' in m ? m.id : null))).toEqual([1, 3]);
    expect(answered).toEqual([
      expect.objectContaining({
        id: 2,
        error: expect.objectContaining({
          code: -32022,
          data: { supported: ['2026-07-28'], requested: '2099-01-01' },
        }),
      }),
      expect.objectContaining({ id: 4, error: expect.objectContaining({ code: -32022 }) }),
    ]);
  });

  it('leaves requests without a version claim, and notifications, to the SDK', async () => {
    const { host, passed, answered, request } = await guarded();
    await host.send(request(1));
    await host.send({
      jsonrpc: '2.0',
      method: 'notifications/initialized',
      params: { _meta: { [PROTOCOL_VERSION_META_KEY]: '1999-01-01' } },
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(passed).toHaveLength(2);
    expect(answered).toEqual([]);
  });

  it('settles `closed` when the connection closes', async () => {
    const { host, guard } = await guarded();
    await host.close();
    await expect(guard.closed).resolves.toBeUndefined();
  });
});
