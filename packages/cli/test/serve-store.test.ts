// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import { connect } from '@parley/client';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DATABASE_URL,
  dropSchema,
  freshSchema,
  withClient,
} from '../../store-postgres/test/database.js';
import { CHILD_TEST_TIMEOUT_MS, killAll, runCli } from './fixtures/cli-process.js';
import { serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
const schema = freshSchema();
afterAll(async () => {
  killAll();
  await dropSchema(schema);
  folder.remove();
});

describe('parley serve --store (issue 7)', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('keeps the example state in PostgreSQL, and a restart on the same schema still has it', async () => {
    await runCli(['keys', 'init'], env);
    const store = `${DATABASE_URL}?schema=${schema}`;
    const first = await serveExample('shop', ['--tcp', '127.0.0.1:0', '--store', store], env, 1);
    const client = await connect(first.addresses[0] as string);
    const before = await client.ask('shop.search', { query: 'ssd' });
    await client.close();
    expect(JSON.stringify(before.data)).toContain('SSD 1TB');
    expect((await first.stop()).code).toBe(0);
    // The catalog lives in that schema's data table, not in a SQLite folder.
    const rows = await withClient((c) =>
      c.query(`SELECT count(*)::int AS n FROM "${schema}".data WHERE key LIKE 'item/%'`),
    );
    expect(rows.rows[0]?.n).toBeGreaterThanOrEqual(60);
    const second = await serveExample('shop', ['--tcp', '127.0.0.1:0', '--store', store], env, 1);
    const again = await connect(second.addresses[0] as string);
    expect((await again.ask('shop.search', { query: 'ssd' })).data).toEqual(before.data);
    await again.close();
    expect((await second.stop()).code).toBe(0);
  });

  it('refuses --store with --data, and an unsupported store URL, with one sentence and exit 2', async () => {
    const both = await runCli(
      ['serve', 'shop', '--store', DATABASE_URL, '--data', folder.path],
      env,
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--store and --data');
    const bad = await runCli(['serve', 'shop', '--store', 'mysql://secret:pw@127.0.0.1/x'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unsupported store');
    expect(bad.stderr).not.toContain(':pw@');
  });
});
