import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Approvers, twoOfThreeSuite } from './fixtures/approvers.js';
import { CHILD_TEST_TIMEOUT_MS, runCli } from './fixtures/cli-process.js';
import { runCliAtTerminal } from './fixtures/terminal.js';

/** The agent, the shop, and Ana, Ben, Cy (listed) and Dee (not listed), each on a device. */
const at = twoOfThreeSuite();
const { folder } = at;
/** The agent's device: its home, its wallet, the service it talks to. */
const agentEnv = at.env;
const PROMPT = /Approve\? \[y\/N\] /;
const homeOf = (who: keyof Approvers) => ({ PARLEY_HOME: join(folder.path, who) });
const file = (name: string) => join(folder.path, name);

/** An order proposal the agent was refused with consent_required (exit 3); its id. */
async function refusedOrder(): Promise<string> {
  const intent = await runCli(
    ['intent', at.url, 'shop.order', 'items:=[{"sku":"cab-1a","qty":1}]'],
    agentEnv,
  );
  expect(intent.code).toBe(0);
  const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
  const refused = await runCli(['commit', at.url, proposal], agentEnv);
  expect(refused.code).toBe(3);
  // §E4: the hint names both ways to approve: here with a key file, or from a device of one's own.
  expect(refused.stderr).toContain(
    'Each person listed approves at this terminal with their own key:',
  );
  expect(refused.stderr).toContain(`approve ${proposal} --export request.json`);
  return proposal;
}

/** `who` approves the exported request at their own terminal; the token lands in `out`. */
const approveAt = (who: keyof Approvers, request: string, out: string) =>
  runCliAtTerminal(['approve', '--request', request, '--out', out], homeOf(who), PROMPT, 'y');

describe('§6.6, docs/extensions.md §E4: approving from another device', {
  timeout: CHILD_TEST_TIMEOUT_MS * 3,
}, () => {
  it('the agent exports the request, two listed people approve at their own terminals, their grants come back and the commit goes through', async () => {
    const proposal = await refusedOrder();
    const request = file('request.json');
    const exported = await runCli(['approve', proposal, '--export', request], agentEnv);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain('nothing was signed');
    expect(exported.stderr).toMatch(/approve --request .*request\.json --out approval\.pg1/);
    const body = JSON.parse(readFileSync(request, 'utf8'));
    expect(body.format).toBe('parley-consent-request/1');
    expect(body.proposal.id).toBe(proposal);

    // Ana's device: her own home, her own key; the screen shows what she signs.
    const ana = await approveAt('ana', request, file('ana.pg1'));
    expect(ana.code).toBe(0);
    expect(ana.stdout).toContain(`proposal ${proposal} · shop.order`);
    expect(ana.stdout).toContain(body.agent);
    expect(ana.stdout).toContain('Approvals: 0 of 2 approvals so far, from 3 people listed');
    expect(readFileSync(file('ana.pg1'), 'utf8')).toMatch(/^pg1\./);

    const added = await runCli(['grants', 'add', file('ana.pg1')], agentEnv);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^added to the wallet: consent grant \S+ from /);
    expect(added.stdout).toContain(at.people.ana.key);
    expect(added.stderr).toContain(`it approves proposal ${proposal}; commit again:`);
    const again = await runCli(['grants', 'add', file('ana.pg1')], agentEnv);
    expect(again.stdout).toMatch(/^already in the wallet: consent grant /);
    const one = await runCli(['commit', at.url, proposal], agentEnv);
    expect(one.code).toBe(3);
    expect(one.stdout).toMatch(/^✗ consent_required: 1 of 2 approvals/);

    // Ben's token comes back through a pipe.
    const ben = await approveAt('ben', request, file('ben.pg1'));
    expect(ben.code).toBe(0);
    const piped = await runCli(
      ['grants', 'add', '-'],
      agentEnv,
      readFileSync(file('ben.pg1'), 'utf8'),
    );
    expect(piped.code).toBe(0);
    const done = await runCli(['commit', at.url, proposal], agentEnv);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/^✓ /);
  });

  it('refuses, before anything is shown or signed, a request whose proposal was changed, and a key not listed', async () => {
    const proposal = await refusedOrder();
    const request = file('request-2.json');
    expect((await runCli(['approve', proposal, '--export', request], agentEnv)).code).toBe(0);
    const body = JSON.parse(readFileSync(request, 'utf8'));

    // §5.1: the hash no longer covers what would be shown.
    const changed = file('changed.json');
    writeFileSync(
      changed,
      JSON.stringify({ ...body, proposal: { ...body.proposal, summary: 'Order nothing' } }),
    );
    const tampered = await approveAt('ana', changed, file('never.pg1'));
    expect(tampered.code).toBe(2);
    expect(tampered.stdout).toMatch(/refusing consent request .*the hash does not cover/);
    expect(tampered.stdout).not.toMatch(PROMPT);
    expect(existsSync(file('never.pg1'))).toBe(false);

    const dee = await approveAt('dee', request, file('dee.pg1'));
    expect(dee.code).toBe(2);
    expect(dee.stdout).toMatch(/refusing consent request .*your principal key is/);
    expect(existsSync(file('dee.pg1'))).toBe(false);

    // §6.6: piped input never answers; without a terminal nothing is signed.
    const noTerminal = await runCli(['approve', '--request', request], homeOf('ana'), 'y\n');
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toMatch(/needs a person at a terminal/);
    expect(noTerminal.stdout).toBe('');

    const notARequest = file('not-a-request.json');
    writeFileSync(notARequest, JSON.stringify({ format: 'something-else' }));
    const wrong = await runCli(['approve', '--request', notARequest], homeOf('ana'));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /is not a consent request: its "format" must be "parley-consent-request\/1"/,
    );
  });

  it('grants add takes only a grant that verifies, is held by this agent and has not expired', async () => {
    // Ana's own grant for her own agent: held by another key.
    const hers = await runCli(['grant', '--svc', 'shop.example', '--no-save'], homeOf('ana'));
    expect(hers.code).toBe(0);
    const token = hers.stdout.trim();
    const held = await runCli(['grants', 'add', token], agentEnv);
    expect(held.code).toBe(2);
    expect(held.stderr).toMatch(/is held by ed25519:\S+, not by this home's agent .*; not added/);

    // A grant for this agent whose signature was changed (§6.2).
    const agentKey = JSON.parse(readFileSync(join(folder.home, 'agent.key'), 'utf8')).public;
    const forAgent = await runCli(
      ['grant', '--svc', 'shop.example', '--to', agentKey, '--no-save'],
      homeOf('ana'),
    );
    const good = forAgent.stdout.trim();
    const last = good.at(-2) === 'A' ? 'B' : 'A';
    const broken = `${good.slice(0, -2)}${last}${good.at(-1)}`;
    const bad = await runCli(['grants', 'add', broken], agentEnv);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /does not verify: block 0 its signature does not verify; not added|not a grant/,
    );

    const expired = await runCli(
      [
        'grant',
        '--svc',
        'shop.example',
        '--to',
        agentKey,
        '--exp',
        '2020-01-01T00:00:00Z',
        '--no-save',
      ],
      homeOf('ana'),
    );
    const old = await runCli(['grants', 'add', expired.stdout.trim()], agentEnv);
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/expired at 2020-01-01T00:00Z; not added/);

    const missing = await runCli(['grants', 'add', file('no-such-file')], agentEnv);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /is neither a pg1\. token nor a file that can be read \(ENOENT\)/,
    );

    const added = await runCli(['grants', 'add', good], agentEnv);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^added to the wallet: grant /);
  });

  it('says what to give when neither a proposal nor a request is named', async () => {
    const none = await runCli(['approve'], agentEnv);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/name the proposal to approve .*or an exported request/);
    const both = await runCli(['approve', 'p_x', '--request', file('request.json')], agentEnv);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--request approves the request in its file/);
  });
});
