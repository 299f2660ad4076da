// `parley audit`: docs/extensions.md §E3, the audit trail of a service's SQLite store read by a
// real `parley` child process, and `--verify` naming the row after the file was edited by hand.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { Receipt } from '@parley/protocol';
import { SQLITE_FILE_NAME, SqliteStore, type StoredProposal } from '@parley/service';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_TEST_TIMEOUT_MS, type CliResult, killAll, runCli } from './fixtures/cli-process.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
const data = join(folder.path, 'shop');
const AT = 1_790_000_000;

function proposal(n: number): StoredProposal {
  return {
    proposal: {
      id: `p_${n}`,
      capability: 'shop.order',
      summary: `Order ${n} mugs`,
      effects: [{ op: 'create', target: 'order' }],
      cost: { amount: 500 * n, currency: 'USD' },
      risk: 'low',
      undo: null,
      expires: AT + 600,
      hash: `h${n}`,
    },
    action: { n },
    holder: 'ed25519:agent',
    principal: 'ed25519:boss',
    createdAt: AT,
  };
}

function receipt(record: StoredProposal, at: number): Receipt {
  const p = record.proposal;
  return {
    id: `r_${p.id}`,
    proposal: p.id,
    capability: p.capability,
    summary: p.summary,
    at,
    effects: p.effects,
    cost: p.cost,
    undo: null,
  };
}

const start = (record: StoredProposal, at: number, consent?: string[]) => ({
  proposalId: record.proposal.id,
  holder: 'ed25519:agent',
  principal: 'ed25519:boss',
  startedAt: at,
  amount: 0,
  caps: [],
  ...(consent === undefined ? {} : { consent }),
});

/** Six rows: three commits, a revocation, then a commit made with consent (two rows). */
beforeAll(async () => {
  const store = new SqliteStore({ folder: data });
  const records = [1, 2, 3, 4].map(proposal);
  await store.putProposals(records);
  for (const [i, record] of records.slice(0, 3).entries()) {
    await store.beginCommit(start(record, AT + i));
    await store.finishCommit(record.proposal.id, receipt(record, AT + i), record.action);
  }
  await store.putRevocation(
    { target: 'block:b1', at: AT, by: 'ed25519:boss', revocation: { s: 'x' } },
    AT + 100,
  );
  const last = records[3] as StoredProposal;
  await store.commitInTransaction(start(last, AT + 200, ['ed25519:boss']), async () => ({
    receipt: receipt(last, AT + 200),
    action: last.action,
  }));
  await store.close();
});

afterAll(() => {
  killAll();
  folder.remove();
});

const audit = (dir: string, ...args: string[]): Promise<CliResult> =>
  runCli(['audit', 'shop', '--data', dir, ...args], env);

/** A copy of the data folder whose database `edit` changed, as someone with the file could. */
function tampered(name: string, edit: (db: Database.Database) => void): string {
  const copy = join(folder.path, name);
  cpSync(data, copy, { recursive: true });
  const db = new Database(join(copy, SQLITE_FILE_NAME));
  try {
    edit(db);
  } finally {
    db.close();
  }
  return copy;
}

describe('parley audit (§E3)', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('prints one line per row, NDJSON with --json, and from a time on with --since', async () => {
    const shown = await audit(data);
    expect(shown.code).toBe(0);
    const lines = shown.stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      '1 2026-09-21T14:13:20Z commit',
      '2 2026-09-21T14:13:21Z commit',
      '3 2026-09-21T14:13:22Z commit',
      '4 2026-09-21T14:15:00Z revocation',
      '5 2026-09-21T14:16:40Z consent',
      '6 2026-09-21T14:16:40Z commit',
    ]);
    // The detail as kept: canonical JSON, members in sorted order.
    expect(lines[0]).toContain(' capability=shop.order cost={"amount":500,"currency":"USD"} ');
    expect(lines[0]).toContain(' proposal=p_1 receipt=r_p_1 ');
    expect(lines[0]).toContain('summary="Order 1 mugs"');
    expect(lines[4]).toContain('by=["ed25519:boss"]');

    const json = await audit(data, '--json');
    const rows = json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { seq: number; kind: string; hash: string });
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows[3]).toMatchObject({ kind: 'revocation', detail: { target: 'block:b1' } });

    const since = await audit(data, '--since', String(AT + 100), '--json');
    expect(since.stdout.trimEnd().split('\n').length).toBe(3);
    const iso = await audit(data, '--since', '2026-09-21T14:15:00Z');
    expect(iso.stdout.trimEnd().split('\n')[0]).toMatch(/^4 /);
  });

  it("finds the service's folder inside a `parley start --data` folder", async () => {
    const shown = await audit(folder.path, '--verify');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^6 rows verified/);
  });

  it('--verify counts the rows of an intact chain', async () => {
    const verified = await audit(data, '--verify');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^6 rows verified; head row 6 [\w-]{43}\n$/);
  });

  it('a bad --since is refused in one sentence', async () => {
    const refused = await audit(data, '--since', 'yesterday');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--since yesterday is not a time');
  });

  // In SQLite a commit's trail row is its own commit row (schema version 6, sqlite-trail.ts); the
  // other kinds are rows of `audit`. Each edit below is made in the table that holds the row.
  it('--verify names a row whose detail was edited in the file', async () => {
    const receipt = tampered('changed', (db) => {
      db.prepare(
        `UPDATE commits SET receipt = replace(receipt, 'mugs', 'cups') WHERE seq = 3`,
      ).run();
    });
    const verdict = await audit(receipt, '--verify');
    expect(verdict.code).toBe(1);
    expect(verdict.stdout).toMatch(/^verification failed at row 3 \(changed\)/);
    const revocation = tampered('changed-revocation', (db) => {
      db.prepare(`UPDATE audit SET detail = replace(detail, 'b1', 'b2') WHERE seq = 4`).run();
    });
    expect((await audit(revocation, '--verify')).stdout).toMatch(
      /^verification failed at row 4 \(changed\)/,
    );
  });

  it('--verify names a row deleted from the file, in the middle and at the end', async () => {
    const middle = tampered('removed', (db) => {
      db.prepare('DELETE FROM commits WHERE seq = 2').run();
    });
    expect((await audit(middle, '--verify')).stdout).toMatch(
      /^verification failed at row 2 \(removed\)/,
    );
    const end = tampered('removed-last', (db) => {
      db.prepare('DELETE FROM commits WHERE seq = 6').run();
    });
    const verdict = await audit(end, '--verify', '--json');
    expect(verdict.code).toBe(1);
    expect(JSON.parse(verdict.stdout)).toMatchObject({ ok: false, seq: 6, problem: 'removed' });
  });

  it('--verify names the first of two rows swapped in the file', async () => {
    const dir = tampered('swapped', (db) => {
      db.transaction(() => {
        db.prepare('UPDATE audit SET seq = -1 WHERE seq = 4').run();
        db.prepare('UPDATE audit SET seq = 4 WHERE seq = 5').run();
        db.prepare('UPDATE audit SET seq = 5 WHERE seq = -1').run();
      })();
    });
    const verdict = await audit(dir, '--verify');
    expect(verdict.code).toBe(1);
    expect(verdict.stdout).toMatch(/^verification failed at row 4 \(reordered\)/);
    const commits = tampered('swapped-commits', (db) => {
      db.transaction(() => {
        db.prepare('UPDATE commits SET seq = -1 WHERE seq = 2').run();
        db.prepare('UPDATE commits SET seq = 2 WHERE seq = 3').run();
        db.prepare('UPDATE commits SET seq = 3 WHERE seq = -1').run();
      })();
    });
    expect((await audit(commits, '--verify')).stdout).toMatch(
      /^verification failed at row 2 \(reordered\)/,
    );
  });
});
