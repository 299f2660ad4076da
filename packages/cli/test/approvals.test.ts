import { beforeAll, describe, expect, it } from 'vitest';
import { type Approvers, twoOfThreeSuite } from './fixtures/approvers.js';
import { CHILD_TEST_TIMEOUT_MS, runCli } from './fixtures/cli-process.js';
import { runCliAtTerminal } from './fixtures/terminal.js';

/** The agent, the shop, and Ana, Ben, Cy (listed) and Dee (not listed), each a key of their own. */
const at = twoOfThreeSuite();
const { env } = at;
const PROMPT = /Approve\? \[y\/N\] /;

beforeAll(() => {
  expect(at.grant.stderr).toMatch(/each COMMIT needs the consent of 2 of/);
});

const approveAs = (who: keyof Approvers, proposal: string) =>
  runCliAtTerminal(['approve', proposal, '--principal', at.people[who].file], env, PROMPT, 'y');

describe('docs/extensions.md §E4: parley approve by several people, 2 of 3', {
  timeout: CHILD_TEST_TIMEOUT_MS * 2,
}, () => {
  it('one approval is not enough, a key not listed cannot approve, two listed keys commit it', async () => {
    const intent = await runCli(
      ['intent', at.url, 'shop.order', 'items:=[{"sku":"cab-1a","qty":1}]'],
      env,
    );
    expect(intent.code).toBe(0);
    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
    const first = await runCli(['commit', at.url, proposal], env);
    expect(first.code).toBe(3);
    expect(first.stdout).toMatch(/^✗ consent_required: 0 of 2 approvals/);

    const ana = await approveAs('ana', proposal);
    expect(ana.code).toBe(0);
    expect(ana.stdout).toContain('Approvals: 0 of 2 approvals so far, from 3 people listed');
    const one = await runCli(['commit', at.url, proposal], env);
    expect(one.code).toBe(3);
    expect(one.stdout).toMatch(/^✗ consent_required: 1 of 2 approvals/);

    const dee = await runCli(['approve', proposal, '--principal', at.people.dee.file], env, 'y\n');
    expect(dee.code).toBe(2);
    expect(dee.stderr).toMatch(/refusing consent request .*your principal key is/);

    const ben = await approveAs('ben', proposal);
    expect(ben.code).toBe(0);
    const done = await runCli(['commit', at.url, proposal], env);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/^✓ /);
  });
});
