import assert from 'node:assert/strict';
import pg from 'pg';
import type { ContainerEngine } from './container-engine.js';
import {
  engineRun,
  type Frame,
  freePort,
  hostCli,
  type MadeThings,
  runHealthy,
  say,
} from './container-steps.js';

/** The machine's PostgreSQL (README, Prerequisites), unless PARLEY_TEST_PG names another. */
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * compose.yaml's shape with the image: two containers running `IMAGE parley serve shop --store
 * postgres://…` on one schema of this machine's PostgreSQL (host network, so they reach it on
 * 127.0.0.1), trusting the host's principal. A proposal made by one is committed through the
 * other, and the COMMIT sent to the first again is the same receipt's replay (§4.4): one store.
 * The schema is dropped at the end.
 */
export async function twoInstancesOnPostgres(options: {
  engine: ContainerEngine;
  made: MadeThings;
  image: string;
  id: string;
  /** The host CLI's home: its agent holds a grant for shop.example from `principal`. */
  home: string;
  principal: string;
}): Promise<void> {
  const { engine, made, image, home } = options;
  const named = process.env.PARLEY_TEST_PG;
  const server = named?.startsWith('postgres') === true ? named : DEFAULT_PG;
  const schema = `parley_container_test_${options.id.replace(/\W/g, '_')}`;
  const client = new pg.Client({ connectionString: server });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL at ${server} cannot be reached (${error instanceof Error ? error.message : error}); set PARLEY_TEST_PG=postgres://…`,
    );
  }
  made.add(`schema ${schema}`, async () => {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });
  const store = `${server}${server.includes('?') ? '&' : '?'}schema=${schema}`;

  const instances: { name: string; tcp: string }[] = [];
  for (const n of [1, 2]) {
    const [tcp, http] = [await freePort(), await freePort()];
    const name = `parley-container-test-${options.id}-shop-${n}`;
    await runHealthy(engine, made, name, [
      '--network',
      'host',
      '--env',
      `PARLEY_HEALTH_URL=http://127.0.0.1:${http}/readyz`,
      image,
      ...['parley', 'serve', 'shop', '--store', store],
      ...['--tcp', `127.0.0.1:${tcp}`, '--http', `127.0.0.1:${http}`],
      ...['--trust', options.principal, '--no-local-trust'],
    ]);
    instances.push({ name, tcp: `parley://127.0.0.1:${tcp}` });
  }
  const [one, two] = instances as [(typeof instances)[0], (typeof instances)[0]];
  say(`two shop instances on PostgreSQL schema ${schema}: ${one.tcp} and ${two.tcp}`);

  const frame = async (...args: string[]): Promise<Frame> =>
    JSON.parse((await hostCli(home, [...args, '--json'])).stdout) as Frame;
  const items = 'items:=[{"sku":"cab-1a","qty":1}]';
  const proposals = await frame('intent', one.tcp, 'shop.order', items, 'delivery=standard');
  assert.equal(proposals.kind, 'PROPOSALS');
  const proposal = proposals.proposals?.[0]?.id as string;
  const receipt = await frame('commit', two.tcp, proposal);
  assert.equal(receipt.kind, 'RECEIPT', JSON.stringify(receipt));
  assert.notEqual(receipt.replay, true);
  say(
    `INTENT at ${one.name} → ${proposal}; COMMIT at ${two.name} → RECEIPT ${receipt.receipt?.id}`,
  );
  const replay = await frame('commit', one.tcp, proposal);
  assert.equal(replay.receipt?.id, receipt.receipt?.id, 'one store: the same receipt');
  assert.equal(replay.replay, true);
  say(`COMMIT again at ${one.name} → the same receipt, "replay": true`);
  for (const instance of instances) {
    await engineRun(engine, ['stop', '--time', '30', instance.name]);
    const exit = await engineRun(engine, [
      'inspect',
      '--format',
      '{{.State.ExitCode}}',
      instance.name,
    ]);
    assert.equal(exit.trim(), '0', `${instance.name} stops cleanly on SIGTERM`);
  }
}
