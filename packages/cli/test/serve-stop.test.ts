import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, Wallet } from '@parley/client';
import { encodeGrant, generateKeyPair, issueGrant, publicKeyString } from '@parley/protocol';
import { openStore } from '@parley/store-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CHILD_TEST_TIMEOUT_MS,
  collect,
  killAll,
  NODE_ARGS,
  spawnTracked,
  waitForOutput,
} from './fixtures/cli-process.js';
import { tempFolder } from './fixtures/temp-home.js';

const MODULE = fileURLToPath(new URL('./fixtures/slow-ledger-service.ts', import.meta.url));
const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
afterAll(() => {
  killAll();
  folder.remove();
});

/** How one worker's commit ended, as the client saw it. */
type Seen = { proposal: string; n: number; receipt?: string; error?: string };

describe('SIGTERM under load: a clean stop leaves no commit in doubt (issue 26)', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  // A grace period longer than an apply: replies reach the clients. Shorter (20 ms against an
  // 80 ms apply): connections are cut, yet the commits inside the service finish and record their
  // receipts before the store closes, for a retry to replay.
  it.each([
    ['5', true],
    ['0.02', false],
  ])(
    'with --grace %s, commits applying at SIGTERM complete with their receipts; none is half done',
    async (grace, delivered) => {
      const principal = await generateKeyPair();
      const agent = await generateKeyPair();
      const grant = await issueGrant(principal, {
        sub: publicKeyString(agent),
        caveats: [
          { svc: ['ledger.example'] },
          { can: ['ledger.*'] },
          { per: { max: 500, currency: 'USD' } },
        ],
      });
      const wallet = new Wallet(agent, { grants: [encodeGrant(grant)] });
      const data = join(folder.path, `ledger-${grace}`);
      const args = ['serve', MODULE, '--data', data, '--tcp', '127.0.0.1:0', '--grace', grace];
      args.push('--trust', publicKeyString(principal), '--no-local-trust');
      const child = spawnTracked(process.execPath, [...NODE_ARGS, ...args], env);
      child.stdin?.end();
      const printed = await waitForOutput(child, /^listening (\S+) \(ledger\.example\)$/m);
      const url = /^listening (\S+) /m.exec(printed)?.[1] as string;
      const exited = collect(child, null);

      const seen: Seen[] = [];
      let next = 0;
      let signalled = false;
      /** The commit that was applying (its EVENT had arrived, its reply had not) at SIGTERM. */
      let applyingAtStop: Seen | undefined;
      const stop = (record: Seen): void => {
        if (signalled) return;
        signalled = true;
        applyingAtStop = record;
        child.kill('SIGTERM');
      };
      const worker = async (): Promise<void> => {
        const client = await connect(url, { wallet, expectService: 'ledger.example' });
        try {
          for (;;) {
            const n = next++;
            let record: Seen | undefined;
            try {
              const reply = await client.intent('ledger.post', { n });
              if (reply.kind !== 'PROPOSALS')
                throw new Error(`expected PROPOSALS, got ${reply.kind}`);
              const proposal = reply.proposals[0];
              if (proposal === undefined) throw new Error('no proposal');
              const current: Seen = { proposal: proposal.id, n };
              record = current;
              seen.push(current);
              // Once a dozen receipts are in, SIGTERM lands while this commit is applying.
              const receipt = await client.commit(proposal, {
                onEvent: () => {
                  if (seen.filter((s) => s.receipt !== undefined).length >= 12) stop(current);
                },
              });
              current.receipt = receipt.receipt.id;
            } catch (error) {
              if (record !== undefined)
                record.error = error instanceof Error ? error.message : String(error);
              return;
            }
          }
        } finally {
          await client.close().catch(() => undefined);
        }
      };
      await Promise.all(Array.from({ length: 6 }, () => worker()));
      const { code, stderr } = await exited;
      expect(signalled).toBe(true);
      expect(code, stderr).toBe(0);
      expect(stderr).not.toContain('still running at the end of the grace period');

      const store = await openStore(data, { existing: true });
      try {
        // §4.4: nothing is left applying: no commit in doubt after a clean stop.
        expect(await store.listApplying()).toEqual([]);
        const posted = new Set((await store.data.list('posted/')).map(([key]) => key));
        for (const record of seen) {
          const commit = await store.getCommit(record.proposal);
          if (record.receipt !== undefined) {
            expect(await store.getReceipt(record.receipt)).toBeDefined();
          }
          // Either completed with its receipt (which a retry would replay), or not applied at all.
          if (commit === undefined) expect(posted.has(`posted/${record.n}`), stderr).toBe(false);
          else {
            expect(commit.state).toBe('done');
            expect(posted.has(`posted/${record.n}`)).toBe(true);
          }
        }
        // The commit caught mid-apply by SIGTERM finished, its receipt recorded.
        const caught = await store.getCommit(applyingAtStop?.proposal as string);
        expect(caught?.state).toBe('done');
        if (delivered) {
          expect(applyingAtStop?.receipt).toBeDefined();
          expect(posted.size).toBe(seen.filter((s) => s.receipt !== undefined).length);
        }
      } finally {
        await store.close();
      }
    },
  );
});
