// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import type { FinalReply, Proposal } from '@parley/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, PostgresStore, StoreError } from '../src/index.js';
import { grantFor, signedFrame } from './agent.js';
import { DATABASE_URL, dropSchema, freshSchema, withClient } from './database.js';
import { RELEASES } from './fixtures/next-release.js';
import { InstanceProcess } from './instance-process.js';
import { RawPeer } from './raw-peer.js';

/**
 * Rolling upgrades (issue 26; migrations.ts, expand/contract): instances of the old release and
 * the new one serve the same grants on one schema while the new one migrates, and after.
 */

const N = MIGRATIONS.length;
const PRICE = 100;
const CAP = 40 * PRICE;

const schemas: string[] = [];
const instances: InstanceProcess[] = [];
const peers: RawPeer[] = [];
afterEach(async () => {
  for (const peer of peers.splice(0)) await peer.close().catch(() => {});
  for (const instance of instances.splice(0)) await instance.stop('SIGTERM');
  for (const schema of schemas.splice(0)) await dropSchema(schema);
}, 60_000);

function start(schema: string, name: string, release: keyof typeof RELEASES): InstanceProcess {
  const instance = new InstanceProcess({ url: DATABASE_URL, schema, name, release });
  instances.push(instance);
  return instance;
}

async function peerOf(instance: InstanceProcess): Promise<RawPeer> {
  const peer = await RawPeer.connect(await instance.address);
  peers.push(peer);
  return peer;
}

const versionOf = (schema: string): Promise<number> =>
  withClient(async (client) => {
    const { rows } = await client.query<{ v: number }>(
      `SELECT max(version)::int AS v FROM "${schema}".parley_schema_version`,
    );
    return rows[0]?.v ?? 0;
  });

/** INTENT then COMMIT of one PRICE purchase through `peer` under `token`. */
async function buy(peer: RawPeer, token: string): Promise<FinalReply> {
  const intent = await peer.send(
    await signedFrame({ verb: 'INTENT', capability: 'acme.buy', params: { amount: PRICE } }, token),
  );
  if (intent.kind !== 'PROPOSALS') throw new Error(`expected PROPOSALS: ${JSON.stringify(intent)}`);
  const proposal = intent.proposals[0] as Proposal;
  return peer.send(
    await signedFrame({ verb: 'COMMIT', proposal: proposal.id, hash: proposal.hash }, token),
  );
}

describe('rolling upgrade on one PostgreSQL schema: expand first, contract in a later release', () => {
  it('an old instance keeps serving a grant while a new one migrates beside it, both hold its spend cap, and the old one may restart', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    const old = start(schema, 'old', 'current');
    const oldPeer = await peerOf(old);
    const open = await grantFor();
    const capped = await grantFor([{ spend: { max: CAP, currency: 'USD' } }]);

    // The old instance under steady load for the whole upgrade.
    const outcomes: string[] = [];
    let loading = true;
    const load = (async () => {
      while (loading) {
        const reply = await buy(oldPeer, open.token);
        outcomes.push(reply.kind === 'ERROR' ? reply.code : reply.kind);
        if (reply.kind === 'ERROR') return;
      }
    })();
    await expect.poll(() => outcomes.length).toBeGreaterThanOrEqual(3);

    const newer = start(schema, 'new', 'expand');
    const before = outcomes.length;
    const newPeer = await peerOf(newer);
    // The expand ran (its backfill took BACKFILL_SECONDS) while the old instance served.
    const duringMigration = outcomes.length - before;
    expect(await versionOf(schema)).toBe(N + 1);
    loading = false;
    await load;
    expect(outcomes.filter((o) => o !== 'RECEIPT')).toEqual([]);
    expect(duringMigration).toBeGreaterThan(0);

    // Both releases spend the same grant until its cap: exactly the purchases that fit succeed,
    // the rest are refused (§6.3: over a spend cap, the principal must consent).
    const receipts: string[] = [];
    let refused = 0;
    for (let i = 0; refused < 2; i++) {
      const reply = await buy(i % 2 === 0 ? newPeer : oldPeer, capped.token);
      if (reply.kind === 'RECEIPT') receipts.push((reply.receipt.result as { by: string }).by);
      else {
        expect(reply.kind === 'ERROR' && reply.code).toBe('consent_required');
        refused++;
      }
    }
    expect(receipts).toHaveLength(CAP / PRICE);
    expect(new Set(receipts)).toEqual(new Set(['old', 'new']));
    const store = await PostgresStore.open(DATABASE_URL, { schema, migrations: RELEASES.expand });
    expect(await store.spentTotal(capped.id)).toBe(CAP);
    await store.close();

    // An old instance restarted mid-rollout opens the expanded schema and serves again.
    await old.stop('SIGTERM');
    const restarted = start(schema, 'old-again', 'current');
    const again = await peerOf(restarted);
    const hello = await again.send({ parley: 1, id: 'h', verb: 'HELLO' });
    expect(hello.kind).toBe('BRIEF');
    expect(await versionOf(schema)).toBe(N + 1);

    // Once every instance runs the expand's release, the next release contracts; the old
    // release then refuses the schema at start, naming the code it needs.
    await restarted.stop('SIGTERM');
    const contracted = start(schema, 'contract', 'contract');
    await contracted.address;
    expect(await versionOf(schema)).toBe(N + 2);
    const refusal = await PostgresStore.open(DATABASE_URL, { schema }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(StoreError);
    expect((refusal as StoreError).reason).toBe('schema_too_new');
    expect((refusal as StoreError).message).toContain(`needs code of schema version ${N + 1}`);
  });

  it('a contract release refuses to migrate before the release with its expand was rolled out, and changes nothing', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    await (await PostgresStore.open(DATABASE_URL, { schema })).close();
    const refusal = await PostgresStore.open(DATABASE_URL, {
      schema,
      migrations: RELEASES.contract,
    }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(StoreError);
    expect((refusal as StoreError).reason).toBe('upgrade_order');
    expect(await versionOf(schema)).toBe(N);
    // A new schema has no older instance on it: every migration runs at once.
    const fresh = freshSchema();
    schemas.push(fresh);
    await (
      await PostgresStore.open(DATABASE_URL, { schema: fresh, migrations: RELEASES.contract })
    ).close();
    expect(await versionOf(fresh)).toBe(N + 2);
  });

  it('a schema made before expand/contract (no oldest_reader column) gains it, and then rolls', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    await (await PostgresStore.open(DATABASE_URL, { schema })).close();
    await withClient((client) =>
      client.query(`ALTER TABLE "${schema}".parley_schema_version DROP COLUMN oldest_reader`),
    );
    await (await PostgresStore.open(DATABASE_URL, { schema, migrations: RELEASES.expand })).close();
    const rows = await withClient(async (client) => {
      const result = await client.query<{ version: number; oldest_reader: number | null }>(
        `SELECT version, oldest_reader FROM "${schema}".parley_schema_version ORDER BY version`,
      );
      return result.rows;
    });
    expect(rows.at(-2)).toEqual({ version: N, oldest_reader: null });
    expect(rows.at(-1)).toEqual({ version: N + 1, oldest_reader: N });
    // This release still opens the expanded schema.
    await (await PostgresStore.open(DATABASE_URL, { schema })).close();
  });
});
