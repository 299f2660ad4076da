import { afterAll, describe, expect, it } from 'vitest';
import type { PyObject } from '../src/index.js';
import { DEFAULT_CONCURRENCY, DelegateConnections, runAcrossDelegates } from '../src/net/index.js';
import { FRESH_CONNECTIONS_IN_FLIGHT } from '../src/net/remote-agent.js';
import { type HeldBot, heldBot } from './fixtures/held-bot.js';

const OPTIONS: PyObject[] = Array.from({ length: 8 }, (_, slot) => ({ slot }));
const bots: HeldBot[] = [];
afterAll(async () => {
  await Promise.all(bots.map((bot) => bot.close()));
});

/**
 * Starts a decision with one held bot, waits until the bot holds `expected` requests, and says
 * how many connections the coordinator had open then; then lets the bot answer and checks the
 * decision was reached and the bot never held more.
 */
async function inFlight(
  mode: 'http/1.0' | 'keep-alive',
  expected: number,
  concurrency?: number,
): Promise<number> {
  const bot = await heldBot(mode);
  bots.push(bot);
  const connections = new DelegateConnections();
  const run = runAcrossDelegates([{ url: bot.url }], OPTIONS, {
    connections,
    ...(concurrency === undefined ? {} : { concurrency }),
  });
  await bot.reach(expected);
  // Every request is asked for at once, so a pool that allowed more has opened them by now.
  const open = connections.open;
  bot.release();
  const outcome = await run;
  expect(outcome.ok ? [] : outcome.failures).toEqual([]);
  expect(bot.peak).toBe(expected);
  connections.close();
  return open;
}

describe('requests in flight to a bot that closes each connection (the reference bot: HTTP/1.0, a listen backlog of 5)', () => {
  it(`at most ${FRESH_CONNECTIONS_IN_FLIGHT} at once, below its backlog, though ${DEFAULT_CONCURRENCY} are allowed`, async () => {
    expect(await inFlight('http/1.0', FRESH_CONNECTIONS_IN_FLIGHT)).toBe(
      FRESH_CONNECTIONS_IN_FLIGHT,
    );
  });

  it('the next decision with the same connections keeps the bound, its cards on fresh connections too', async () => {
    const bot = await heldBot('http/1.0');
    bots.push(bot);
    bot.release();
    const connections = new DelegateConnections();
    for (let run = 0; run < 3; run++) {
      const outcome = await runAcrossDelegates([{ url: bot.url }], OPTIONS, { connections });
      expect(outcome.ok ? [] : outcome.failures).toEqual([]);
    }
    expect(connections.closesEach(new URL(bot.url))).toBe(true);
    expect(bot.peak).toBeLessThanOrEqual(FRESH_CONNECTIONS_IN_FLIGHT);
    expect(connections.open).toBe(0);
    connections.close();
  });

  it('a lower concurrency asked for is kept', async () => {
    expect(await inFlight('http/1.0', 2, 2)).toBe(2);
  });

  it('a bot that keeps its connections alive gets every request allowed', async () => {
    expect(await inFlight('keep-alive', 6, 6)).toBe(6);
  });
});
