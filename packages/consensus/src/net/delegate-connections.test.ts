import { afterAll, describe, expect, it } from 'vitest';
import { calendarSheets, SLOTS } from '../../test/fixtures/calendars.js';
import { testKey } from '../../test/fixtures/keys.js';
import { ConsensusError } from '../errors.js';
import { Delegate } from './delegate.js';
import { DelegateConnections } from './delegate-connections.js';
import { type DelegateServer, serveDelegate } from './delegate-server.js';
import { runAcrossDelegates } from './run-across-delegates.js';

/** Real delegates on 127.0.0.1, each counting the TCP connections it accepted. */
const servers: DelegateServer[] = [];
const accepted: number[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function delegates(): Promise<{ url: string; token: string }[]> {
  const sheets = calendarSheets();
  return Promise.all(
    sheets.map(async (sheet, i) => {
      const server = await serveDelegate(new Delegate(sheet, { key: await testKey(i + 1) }), {
        token: 'T',
      });
      servers.push(server);
      accepted[i] = 0;
      server.server.on('connection', () => {
        accepted[i] = (accepted[i] ?? 0) + 1;
      });
      return { url: server.url, token: 'T' };
    }),
  );
}

const connectionsMade = () => accepted.reduce((a, b) => a + b, 0);

describe('DelegateConnections: a coordinator keeps its connections across decisions', () => {
  it('a second decision opens no connection, and reaches the same outcome', async () => {
    const addresses = await delegates();
    const connections = new DelegateConnections();
    const first = await runAcrossDelegates(addresses, SLOTS, { connections, concurrency: 2 });
    const made = connectionsMade();
    expect(made).toBeGreaterThan(0);
    // The run left its connections open for the next one.
    expect(connections.open).toBe(made);
    const second = await runAcrossDelegates(addresses, SLOTS, { connections, concurrency: 2 });
    expect(connectionsMade()).toBe(made);
    if (!first.ok || !second.ok) throw new Error('a decision failed');
    expect(second.result.decision).toEqual(first.result.decision);
    expect(second.result.status).toBe(first.result.status);
    // Each run still opened its own session: the receipts name different nonces.
    expect(second.receipt.session?.nonce).not.toBe(first.receipt.session?.nonce);
    connections.close();
    expect(connections.open).toBe(0);
  });

  it('a run without them connects anew each time and closes what it opened', async () => {
    const addresses = await delegates();
    const before = connectionsMade();
    await runAcrossDelegates(addresses, SLOTS, { concurrency: 2 });
    const once = connectionsMade() - before;
    await runAcrossDelegates(addresses, SLOTS, { concurrency: 2 });
    expect(connectionsMade() - before).toBe(2 * once);
  });

  it('survives delegates that dropped the kept-alive connections between decisions', async () => {
    const addresses = await delegates();
    const connections = new DelegateConnections();
    expect((await runAcrossDelegates(addresses, SLOTS, { connections })).ok).toBe(true);
    for (const server of servers.slice(-addresses.length)) server.server.closeIdleConnections();
    const again = await runAcrossDelegates(addresses, SLOTS, { connections });
    expect(again.ok ? [] : again.failures).toEqual([]);
    connections.close();
  });

  it('once closed, a run given them is refused', async () => {
    const addresses = await delegates();
    const connections = new DelegateConnections();
    connections.close();
    await expect(runAcrossDelegates(addresses, SLOTS, { connections })).rejects.toThrow(
      ConsensusError,
    );
  });

  it('remembers which delegates close each connection, and bounds their fresh ones together', () => {
    const connections = new DelegateConnections();
    const base = new URL('http://127.0.0.1:9/');
    expect(connections.closesEach(base)).toBe(false);
    connections.noteCloses(base, true);
    expect(connections.closesEach(new URL('http://127.0.0.1:9/other/'))).toBe(true);
    // Runs sharing these connections share one bound per delegate.
    expect(connections.lanes(base, 4)).toBe(connections.lanes(base, 4));
    expect(connections.lanes(base, 4).tryTake()).toBe(true);
    expect(connections.open).toBe(1);
    connections.noteCloses(base, false);
    expect(connections.closesEach(base)).toBe(false);
    connections.close();
    expect(connections.open).toBe(0);
    expect(() => connections.lanes(base, 4)).toThrow(ConsensusError);
  });
});
