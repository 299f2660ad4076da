// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DATABASE_URL, dropSchema, freshSchema } from '../../store-postgres/test/database.js';
import {
  CHILD_TEST_TIMEOUT_MS,
  collect,
  killAll,
  killStarted,
  NODE_ARGS,
  runCli,
  spawnTracked,
  waitForOutput,
} from './fixtures/cli-process.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
const schemas: string[] = [];
afterEach(killStarted);
afterAll(async () => {
  killAll();
  for (const schema of schemas) await dropSchema(schema);
  folder.remove();
});

type Served = { child: ChildProcess; health: string; http: string };

/** `parley serve shop` on PostgreSQL with --tcp, --http and --health, all on free ports. */
async function serveShop(schema: string, extra: readonly string[] = []): Promise<Served> {
  const store = `${DATABASE_URL}?schema=${schema}`;
  const args = ['serve', 'shop', '--store', store, '--tcp', '127.0.0.1:0'];
  args.push('--http', '127.0.0.1:0', '--health', '127.0.0.1:0', ...extra);
  const child = spawnTracked(process.execPath, [...NODE_ARGS, ...args], env);
  child.stdin?.end();
  const text = await waitForOutput(child, /^health (\S+)\/healthz/m);
  const http = /^listening (http:\S+) /m.exec(text)?.[1] as string;
  const health = /^health (\S+)\/healthz/m.exec(text)?.[1] as string;
  return { child, health, http };
}

async function get(url: string, host?: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, host === undefined ? {} : { headers: { host } });
  return { status: response.status, body: await response.json() };
}

describe('parley serve: /healthz and /readyz (issue 26)', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('is alive and ready on --health and on the HTTP bridge; not ready once its store is gone', async () => {
    await runCli(['keys', 'init'], env);
    const schema = freshSchema();
    schemas.push(schema);
    const served = await serveShop(schema);
    expect(await get(`${served.health}/healthz`)).toEqual({
      status: 200,
      body: { status: 'alive' },
    });
    expect(await get(`${served.health}/readyz`)).toEqual({
      status: 200,
      body: { status: 'ready' },
    });
    const bridge = new URL(served.http).origin;
    expect((await get(`${bridge}/readyz`)).status).toBe(200);
    // The schema disappears under the running service: the store no longer answers reads.
    await dropSchema(schema);
    const down = await get(`${served.health}/readyz`);
    expect(down.status).toBe(503);
    const problems = (down.body as { problems: string[] }).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^shop: the store does not answer/);
    expect(problems[0]).not.toContain(DATABASE_URL);
    expect((await get(`${bridge}/readyz`)).status).toBe(503);
    expect((await get(`${served.health}/healthz`)).status).toBe(200);
    const done = collect(served.child, null);
    served.child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('is not ready while no principal key is trusted (every grant would be refused)', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    const served = await serveShop(schema, ['--no-local-trust']);
    const answer = await get(`${served.health}/readyz`);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      status: 'not ready',
      problems: ['shop: no principal key is trusted, so every grant would be refused'],
    });
  });

  it('refuses a malformed --health, --grace or --log-format with one sentence and exit 2', async () => {
    const bad = await runCli(['serve', 'shop', '--health', 'nowhere'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--health takes HOST:PORT');
    const grace = await runCli(['serve', 'shop', '--grace', 'soon'], env);
    expect(grace.code).toBe(2);
    expect(grace.stderr).toContain('--grace takes a number of seconds');
    const format = await runCli(['serve', 'shop', '--log-format', 'xml'], env);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--log-format takes text or json');
  });
});
