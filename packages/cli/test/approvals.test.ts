import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Approvers, twoOfThreeAtShop } from './fixtures/approvers.js';
import { CHILD_TEST_TIMEOUT_MS, killAll, killStarted, runCli } from './fixtures/cli-process.js';
import type { ServedExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';
import { runCliAtTerminal } from './fixtures/terminal.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
const PROMPT = /Approve\? \[y\/N\] /;
let shop: ServedExample;
let url = '';
/** Ana, Ben, Cy (listed) and Dee (not listed): each a principal key file of their own. */
let people: Approvers;

beforeAll(async () => {
  const made = await twoOfThreeAtShop(folder.path, env);
  ({ people, shop } = made);
  expect(made.grant.stderr).toMatch(/each COMMIT needs the consent of 2 of/);
  url = shop.addresses[0] as string;
}, CHILD_TEST_TIMEOUT_MS);
afterAll(async () => {
  killStarted();
  await shop?.stop();
  killAll();
  folder.remove();
});

const approveAs = (who: keyof typeof people, proposal: string) =>
  runCliAtTerminal(['approve', proposal, '--principal', people[who].file], env, PROMPT, 'y');

describe('docs/extensions.md §E4: parley approve by several people, 2 of 3', {
  timeout: CHILD_TEST_TIMEOUT_MS * 2,
}, () => {
  it('one approval is not enough, a key not listed cannot approve, two listed keys commit it', async () => {
    const intent = await runCli(
      ['intent', url, 'shop.order', 'items:=[{"sku":"cab-1a","qty":1}]'],
      env,
    );
    expect(intent.code).toBe(0);
    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
    const first = await runCli(['commit', url, proposal], env);
    expect(first.code).toBe(3);
    expect(first.stdout).toMatch(/^✗ consent_required: 0 of 2 approvals/);

    const ana = await approveAs('ana', proposal);
    expect(ana.code).toBe(0);
    expect(ana.stdout).toContain('Approvals: 0 of 2 approvals so far, from 3 people listed');
    const one = await runCli(['commit', url, proposal], env);
    expect(one.code).toBe(3);
    expect(one.stdout).toMatch(/^✗ consent_required: 1 of 2 approvals/);

    const dee = await runCli(['approve', proposal, '--principal', people.dee.file], env, 'y\n');
    expect(dee.code).toBe(2);
    expect(dee.stderr).toMatch(/refusing consent request .*your principal key is/);

    const ben = await approveAs('ben', proposal);
    expect(ben.code).toBe(0);
    const done = await runCli(['commit', url, proposal], env);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/^✓ /);
  });
});
