import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { newCaseArgs } from './fixtures/case-cli.js';
import { runCliHere } from './fixtures/cli-in-process.js';
import {
  CHILD_TEST_TIMEOUT_MS,
  killStarted,
  NODE_ARGS,
  spawnTracked,
  waitForOutput,
} from './fixtures/cli-process.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
const data = ['--data', join(folder.path, 'data')];
afterEach(() => killStarted());
afterAll(() => folder.remove());

const OPTIONS = [
  { plan: 'A', rent: 950, weeks: 4 },
  { plan: 'B', rent: 1100, weeks: 6 },
  { plan: 'E', rent: 920, weeks: 5 },
];

async function ok(args: string[]): Promise<string> {
  const result = await runCliHere([...args, ...data], env);
  if (result.code !== 0)
    throw new Error(`parley ${args.join(' ')}: ${result.code} ${result.stderr}`);
  return result.stdout;
}

describe('parley cases (issue 24): the journey from a terminal', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('new, rules, confirm, accept, receipt: a script runs a case to a receipt verify-receipt checks', async () => {
    const options = join(folder.path, 'options.json');
    writeFileSync(options, JSON.stringify(OPTIONS));
    const made = JSON.parse(await ok(newCaseArgs('Our lease', options)));
    const link = Object.fromEntries(
      made.links.map((l: { name: string; link: string }) => [l.name, l.link]),
    );
    expect(link.Ana).toMatch(/^http:\/\/127\.0\.0\.1:8080\/cases\/#t=[A-Za-z0-9_-]{43}$/);
    // The key file is in the home folder, 0600.
    expect(statSync(join(folder.home, 'cases.key')).mode & 0o777).toBe(0o600);
    expect(await ok(['cases', 'outbox', made.organizer_link])).toContain(link.Ben);
    await ok(['cases', 'answer', link.Ana, 'unacceptable', 'ANA-MARKER anything above 1000']);
    await ok([
      'cases',
      'rules',
      link.Ana,
      '--rule',
      'rent <= 1000',
      '--rule',
      'prefer lower rent 800..1100',
    ]);
    // A rule keeps its commas: a list of values is one rule, not several.
    await ok(['cases', 'rules', link.Ben, '--rule', 'weeks >= 4', '--rule', 'plan in A, E']);
    for (const name of ['Ana', 'Ben']) {
      const unread = await runCliHere(['cases', 'confirm', link[name], ...data], env);
      expect(unread.code).toBe(2);
      const version = /--version (\S+)/.exec(unread.stderr)?.[1] as string;
      expect(unread.stdout).toMatch(/rent|weeks/);
      if (name === 'Ben') expect(unread.stdout).toMatch(/plan in \["A", "E"\]/);
      await ok(['cases', 'confirm', link[name], '--version', version]);
    }
    const status = JSON.parse(await ok(['cases', 'status', link.Ben, '--json']));
    expect(status.state).toBe('ratifying');
    expect(JSON.stringify(status)).not.toContain('ANA-MARKER');
    expect(status.proposal.decision).toEqual({ plan: 'E', rent: 920, weeks: 5 });
    const hash = status.proposal.transcript_sha256;
    const stale = await runCliHere(
      ['cases', 'accept', link.Ana, '--proposal', 'f'.repeat(64), ...data],
      env,
    );
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/not the current proposal/);
    await ok(['cases', 'accept', link.Ana, '--proposal', hash]);
    await ok(['cases', 'accept', link.Ben, '--proposal', hash]);
    const receipt = join(folder.path, 'receipt.json');
    const pdf = join(folder.path, 'receipt.pdf');
    await ok(['cases', 'receipt', link.Ben, '--out', receipt, '--pdf', pdf]);
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    const verified = await runCliHere(['verify-receipt', receipt], env);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('Result: VERIFIED');
    expect(readFileSync(receipt, 'utf8')).not.toContain('ANA-MARKER');
    // Delete leaves nothing: the link opens nothing any more.
    expect(await ok(['cases', 'delete', made.case])).toMatch(/Deleted/);
    const gone = await runCliHere(['cases', 'status', link.Ana, ...data], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/opens nothing/);
    const raw = readFileSync(join(folder.path, 'data', 'cases', 'cases.db')).toString('latin1');
    expect(raw).not.toContain(made.case);
    expect(raw).not.toContain('Our lease');
  });

  it('new with --idempotency-key: a retried command answers with the same case; another case with the key is refused', async () => {
    const options = join(folder.path, 'options3.json');
    writeFileSync(options, JSON.stringify(OPTIONS));
    const key = randomBytes(32).toString('base64url');
    const args = (title: string) => [...newCaseArgs(title, options), '--idempotency-key', key];
    const first = await ok(args('Retried'));
    expect(await ok(args('Retried'))).toBe(first);
    const other = await runCliHere([...args('Another'), ...data], env);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('this Idempotency-Key already opened a different case');
  });

  it('a name keeps its commas: one --party is one person', async () => {
    const options = join(folder.path, 'options4.json');
    writeFileSync(options, JSON.stringify(OPTIONS));
    const args = newCaseArgs('Names', options);
    args[args.lastIndexOf('Ben')] = 'Ben, the landlord';
    const made = JSON.parse(await ok(args));
    expect(made.links.map((l: { name: string }) => l.name)).toEqual(['Ana', 'Ben, the landlord']);
    // The names' column widens for a long name: it keeps a space before what follows it.
    const status = await ok(['cases', 'status', made.links[0].link]);
    expect(status).toContain('\n  Ana                sheet not started\n');
    expect(status).toContain('\n  Ben, the landlord  sheet not started\n');
  });

  it('re-issues and revokes links; a party link cannot act as the initiator', async () => {
    const options = join(folder.path, 'options2.json');
    writeFileSync(options, JSON.stringify(OPTIONS));
    const made = JSON.parse(await ok(newCaseArgs('Two', options)));
    const ben = made.links[1].link;
    const reissued = await ok(['cases', 'invite', made.organizer_link, '--party', 'ben']);
    const fresh = /(http\S+#t=\S+)/.exec(reissued)?.[1] as string;
    expect((await runCliHere(['cases', 'status', ben, ...data], env)).stderr).toMatch(/revoked/);
    expect(await ok(['cases', 'status', fresh])).toContain('You are Ben.');
    const asParty = await runCliHere(
      ['cases', 'invite', made.links[0].link, '--party', 'Ben', ...data],
      env,
    );
    expect(asParty.code).toBe(1);
    await ok(['cases', 'revoke', made.organizer_link, '--party', 'Ben']);
    expect((await runCliHere(['cases', 'status', fresh, ...data], env)).stderr).toMatch(/revoked/);
  });

  it("parley cases serve alone answers the API on one origin with the page server's checks", async () => {
    const child = spawnTracked(
      process.execPath,
      [...NODE_ARGS, 'cases', 'serve', '--port', '0', ...data],
      env,
    );
    const out = await waitForOutput(child, /listening (http:\/\/127\.0\.0\.1:\d+)/);
    const origin = /listening (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] as string;
    const made = await fetch(`${origin}/cases/api/cases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Served',
        decision: 'Which?',
        options: OPTIONS,
        organizer: 'Ana',
        parties: ['Ana', 'Ben'],
      }),
    });
    expect(made.status).toBe(201);
    expect(made.headers.get('content-security-policy')).toContain("default-src 'self'");
    const body = await made.json();
    expect(body.links[0].link.startsWith(`${origin}/cases/#t=`)).toBe(true);
    const token = body.links[0].link.split('#t=')[1];
    const view = await fetch(`${origin}/cases/api/case`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect((await view.json()).you.name).toBe('Ana');
    // Another site's page may not call it (Origin check).
    const cross = await fetch(`${origin}/cases/api/case`, {
      headers: { authorization: `Bearer ${token}`, origin: 'https://evil.example' },
    });
    expect(cross.status).toBe(403);
    expect(existsSync(join(folder.path, 'data', 'cases', 'cases.db'))).toBe(true);
  });
});
