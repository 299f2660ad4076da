// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
// `parley audit --store postgres://… --verify`: docs/extensions.md §E3 on a PostgreSQL store, the
// audit table edited by hand (a row changed, removed, two swapped), each named by --verify.
import { type Receipt, verifyAuditChain } from '@parley/protocol';
import type { StoredProposal } from '@parley/service';
import { PostgresStore } from '@parley/store-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DATABASE_URL,
  dropSchema,
  freshSchema,
  withClient,
} from '../../store-postgres/test/database.js';
import { runInProcess } from './fixtures/in-process.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const schemas: string[] = [];
const inSchema = (name: string): string =>
  `${DATABASE_URL}${DATABASE_URL.includes('?') ? '&' : '?'}schema=${name}`;
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
  folder.remove();
});

const T0 = 1_790_000_000;
/** A connection of the test's own (database.ts). */
type Client = Parameters<Parameters<typeof withClient>[0]>[0];

function record(id: string): StoredProposal {
  return {
    proposal: {
      id,
      capability: 'shop.order',
      summary: `Order ${id}`,
      effects: [{ op: 'create', target: `order/${id}` }],
      cost: null,
      risk: 'low',
      undo: null,
      expires: T0 + 600,
      hash: 'h',
    },
    action: null,
    holder: 'ed25519:agent',
    principal: 'ed25519:boss',
    createdAt: T0,
  };
}

/** A schema whose trail holds five commits, then `edit` applied to its audit table by hand. */
async function trail(edit?: (client: Client, table: string) => Promise<unknown>) {
  const schema = freshSchema();
  schemas.push(schema);
  const store = await PostgresStore.open(DATABASE_URL, { schema });
  const ids = [1, 2, 3, 4, 5].map((n) => `p_${n}`);
  await store.putProposals(ids.map(record));
  for (const [i, id] of ids.entries()) {
    await store.beginCommit({
      proposalId: id,
      holder: 'ed25519:agent',
      principal: 'ed25519:boss',
      startedAt: T0 + i,
      amount: 0,
      caps: [],
    });
    const receipt: Receipt = {
      id: `r_${id}`,
      proposal: id,
      capability: 'shop.order',
      summary: `Order ${id}`,
      at: T0 + i,
      effects: [],
      cost: null,
      undo: null,
    };
    await store.finishCommit(id, receipt, null);
  }
  expect(verifyAuditChain((await store.readAudit()).rows)).toMatchObject({ ok: true, count: 5 });
  await store.close();
  if (edit !== undefined) await withClient((client) => edit(client, `"${schema}".audit`));
  return (...args: string[]) =>
    runInProcess(['audit', 'shop', '--store', inSchema(schema), ...args], {
      PARLEY_HOME: folder.home,
    });
}

describe('parley audit --store (PostgreSQL, §E3)', () => {
  it('prints the rows and verifies the chain', async () => {
    const audit = await trail();
    const shown = await audit();
    expect(shown.code).toBe(0);
    expect(
      shown.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split(' ')[0]),
    ).toEqual(['1', '2', '3', '4', '5']);
    const verified = await audit('--verify');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^5 rows verified; head row 5 /);
  });

  it('names a row whose detail was changed in the table', async () => {
    const audit = await trail((client, table) =>
      client.query(`UPDATE ${table} SET detail = replace(detail, 'Order', 'Refund') WHERE seq = 2`),
    );
    const verdict = await audit('--verify');
    expect(verdict.code).toBe(1);
    expect(verdict.stdout).toMatch(/^verification failed at row 2 \(changed\)/);
  });

  it('names a row deleted from the table', async () => {
    const audit = await trail((client, table) =>
      client.query(`DELETE FROM ${table} WHERE seq = 3`),
    );
    expect((await audit('--verify')).stdout).toMatch(/^verification failed at row 3 \(removed\)/);
  });

  it('names the first of two rows swapped in the table', async () => {
    const audit = await trail(async (client, table) => {
      await client.query(`UPDATE ${table} SET seq = -1 WHERE seq = 3`);
      await client.query(`UPDATE ${table} SET seq = 3 WHERE seq = 4`);
      await client.query(`UPDATE ${table} SET seq = 4 WHERE seq = -1`);
    });
    const verdict = await audit('--verify', '--json');
    expect(verdict.code).toBe(1);
    expect(JSON.parse(verdict.stdout)).toMatchObject({ ok: false, seq: 3, problem: 'reordered' });
  });
});
