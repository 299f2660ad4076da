// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
// `parley doubt --store postgres://…`: the same listing and settling on a PostgreSQL store, here
// holding a commit and an undo left in doubt by an instance that is gone (§4.4, §4.5).
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
const schema = freshSchema();
/** This run's database URL, naming a schema. */
const inSchema = (name: string): string =>
  `${DATABASE_URL}${DATABASE_URL.includes('?') ? '&' : '?'}schema=${name}`;
const store = inSchema(schema);
/** How the CLI prints a store URL: a password in it (the embedded server's has one) as `***`. */
const shown = (url: string): string => {
  const redacted = new URL(url);
  if (redacted.password !== '') redacted.password = '***';
  return redacted.toString();
};
afterAll(async () => {
  await dropSchema(schema);
  folder.remove();
});

const HOLDER = 'ed25519:agent';
const PRINCIPAL = 'ed25519:boss';
const T0 = 1_790_000_000;

function proposal(id: string, summary: string) {
  return {
    proposal: {
      id,
      capability: 'acme.send',
      summary,
      effects: [{ op: 'create' as const, target: `message/${id}` }],
      cost: null,
      risk: 'low' as const,
      undo: { window: 3600 },
      expires: T0 + 600,
      hash: 'h',
    },
    action: { to: id },
    holder: HOLDER,
    principal: PRINCIPAL,
    createdAt: T0,
  };
}

/** What a crashed instance leaves: one commit applying, one done receipt whose undo began. */
async function leftInDoubt(): Promise<{ stuck: string; undoing: string }> {
  const db = await PostgresStore.open(DATABASE_URL, { schema });
  const start = (id: string, startedAt: number) => ({
    proposalId: id,
    holder: HOLDER,
    principal: PRINCIPAL,
    startedAt,
    amount: 0,
    caps: [],
  });
  await db.putProposals([proposal('p_stuck', 'Send to Ana'), proposal('p_sent', 'Send to Bo')]);
  await db.beginCommit(start('p_stuck', T0 + 20));
  await db.beginCommit(start('p_sent', T0 + 10));
  const receipt = {
    id: 'r_sent',
    proposal: 'p_sent',
    capability: 'acme.send',
    summary: 'Send to Bo',
    at: T0 + 10,
    effects: [{ op: 'create' as const, target: 'message/p_sent' }],
    cost: null,
    undo: { until: T0 + 3610 },
  };
  await db.finishCommit('p_sent', receipt, { to: 'p_sent' });
  await db.beginUndo('r_sent', T0 + 30);
  await db.close();
  return { stuck: 'p_stuck', undoing: 'r_sent' };
}

describe('parley doubt --store (PostgreSQL)', () => {
  it('refuses a schema no store was made in, and does not create it', async () => {
    const typo = freshSchema();
    const url = inSchema(typo);
    const refused = await runInProcess(['doubt', 'shop', '--store', url], {
      PARLEY_HOME: folder.home,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `parley: no Parley store at ${shown(url)}: parley serve shop makes it when it first starts (or give --data DIR, --store URL)\n`,
    );
    const made = await withClient((c) =>
      c.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [typo]),
    );
    expect(made.rowCount).toBe(0);
  });

  it('lists the commit and the undo oldest first, and settles each', async () => {
    const { stuck, undoing } = await leftInDoubt();
    const env = { PARLEY_HOME: folder.home };
    const doubt = (...args: string[]) =>
      runInProcess(['doubt', 'shop', '--store', store, ...args], env);
    const listed = await doubt();
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')).toEqual([
      expect.stringMatching(/^2 in doubt in postgres/),
      `commit ${stuck} acme.send "Send to Ana" since 2026-09-21T14:13:40Z`,
      `undo ${undoing} acme.send "Send to Bo" since 2026-09-21T14:13:50Z`,
      '',
    ]);
    expect(listed.stderr).toContain(`parley doubt shop --store '${shown(store)}' --applied ID`);

    // A password in --store never reaches the terminal, in the listing or the printed commands:
    // the embedded server's own, or any password on a server that trusts local connections.
    const withPassword = new URL(store);
    if (withPassword.password === '') withPassword.password = 'hunter2-secret';
    const listing = await runInProcess(['doubt', 'shop', '--store', withPassword.toString()], env);
    expect(listing.code).toBe(0);
    expect(listing.stdout).toContain('2 in doubt in postgres://postgres:***@');
    expect(listing.stderr).toContain("parley doubt shop --store 'postgres://postgres:***@");
    expect(listing.stdout + listing.stderr).not.toContain(withPassword.password);

    const reverted = await doubt('--applied', undoing);
    expect(reverted.code).toBe(0);
    expect(reverted.stdout).toContain('undid r_sent');
    const released = await doubt('--not-applied', stuck);
    expect(released.stdout).toBe(`released: proposal ${stuck} can be committed again\n`);
    expect((await doubt()).stdout).toMatch(/^nothing in doubt in postgres/);

    // docs/extensions.md §E3: each settling is in the audit trail, after the rows before it.
    const audit = await runInProcess(['audit', 'shop', '--store', store, '--json'], env);
    const rows = audit.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; detail: Record<string, unknown> });
    expect(rows.map((row) => row.kind)).toEqual(['commit', 'undo', 'settled', 'settled']);
    expect(rows[2]?.detail).toMatchObject({ of: 'undo', id: undoing, applied: true });
    expect(rows[3]?.detail).toEqual({ of: 'commit', id: stuck, applied: false });
    const verified = await runInProcess(['audit', 'shop', '--store', store, '--verify'], env);
    expect(verified.stdout).toMatch(/^4 rows verified/);

    const db = await PostgresStore.open(DATABASE_URL, { schema });
    expect(await db.getCommit(stuck)).toBeUndefined();
    expect((await db.getReceipt(undoing))?.undo).toMatchObject({
      state: 'undone',
      reversal: {
        undoes: undoing,
        at: T0 + 30,
        effects: [{ op: 'delete', target: 'message/p_sent' }],
      },
    });
    await db.close();
  });
});
