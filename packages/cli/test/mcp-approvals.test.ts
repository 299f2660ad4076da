/**
 * Approval by several people (docs/extensions.md §E4) through MCP: the official MCP client as the
 * host, with form elicitation, → `parley mcp --principal-consent --principal ANA` (a child
 * process) → `parley serve shop`, whose grant needs 2 of Ana, Ben and Cy. Ana is the person at
 * the host; Ben approves at his terminal with `parley approve`; Dee is listed nowhere.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Consent,
  consentGrant,
  encodeGrant,
  issueGrant,
  publicKeyString,
} from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERAS, type Host, openHost } from '../../mcp/test/support/hosts.js';
import { isToolError, textOf } from '../../mcp/test/support/results.js';
import { loadAgent, loadPrincipal } from '../src/home/local-keys.js';
import { type Approvers, twoOfThreeSuite } from './fixtures/approvers.js';
import { CHILD_TEST_TIMEOUT_MS, NODE_ARGS, runCli } from './fixtures/cli-process.js';
import { runCliAtTerminal } from './fixtures/terminal.js';

/** The agent, the shop, and Ana, Ben, Cy (listed) and Dee (not listed), each a key of their own. */
const at = twoOfThreeSuite(CHILD_TEST_TIMEOUT_MS * 2);
const { folder, env } = at;
const PROMPT = /Approve\? \[y\/N\] /;
const SAY = (have: number) =>
  `Approvals: ${have} of 2 approvals so far, from 3 people listed; each person counts once`;
let host: Host;
/** Whether Ana, at the host, approves what she is shown. */
let anaSays: 'accept' | 'decline' = 'accept';

const call = (name: string, args: Record<string, unknown>) =>
  host.client.callTool({ name, arguments: args });
const stock = async (sku: string): Promise<number | undefined> => {
  const found = await call('parley_ask', { capability: 'shop.search', params: { query: sku } });
  const data = (found.structuredContent as { data: { items: { sku: string; stock: number }[] } })
    .data;
  return data.items.find((item) => item.sku === sku)?.stock;
};
const order = async (sku: string): Promise<string> => {
  const intent = await call('parley_intent', {
    capability: 'shop.order',
    params: { items: [{ sku, qty: 1 }] },
  });
  const { proposals } = intent.structuredContent as { proposals: { id: string }[] };
  return proposals[0]?.id ?? '';
};
const approveAs = (who: keyof Approvers, proposal: string) =>
  runCliAtTerminal(['approve', proposal, '--principal', at.people[who].file], env, PROMPT, 'y');
/** Puts a consent grant signed by `who`'s key into the agent's wallet file, as any file edit. */
const walletGets = async (who: keyof Approvers, consent: Consent, nonce: string) => {
  const signer = await loadPrincipal(folder.home, at.people[who].file);
  const agent = await loadAgent(folder.home);
  // consentGrant refuses a key the request does not list; Dee's is signed with §6.6's caveats.
  const grant =
    who === 'dee'
      ? await issueGrant(signer, {
          sub: publicKeyString(agent),
          caveats: [
            { svc: [consent.service] },
            { verbs: ['COMMIT'] },
            { can: [consent.capability] },
            { only: consent.hash },
            { exp: consent.expires },
          ],
          nonce,
        })
      : await consentGrant(signer, consent, publicKeyString(agent), { nonce });
  const token = encodeGrant(grant);
  const path = join(folder.home, 'grants.json');
  const wallet = JSON.parse(readFileSync(path, 'utf8')) as { grants: string[] };
  wallet.grants.push(token);
  writeFileSync(path, JSON.stringify(wallet));
};

describe.each(ERAS)(
  'docs/extensions.md §E4 through MCP elicitation, 2 of 3, MCP %s host',
  {
    timeout: CHILD_TEST_TIMEOUT_MS * 3,
  },
  (era) => {
    beforeAll(async () => {
      host = await openHost({
        era,
        command: process.execPath,
        args: [
          ...NODE_ARGS,
          'mcp',
          '--principal-consent',
          '--principal',
          at.people.ana.file,
          at.url,
        ],
        env,
        answer: () =>
          anaSays === 'accept'
            ? { action: 'accept', content: { approve: true } }
            : { action: 'decline' },
      });
    }, CHILD_TEST_TIMEOUT_MS);
    afterAll(() => host?.close());

    it('one approval is refused, the same key twice and an unlisted key add nothing, two commit', async () => {
      const before = await stock('cab-1a');
      const proposal = await order('cab-1a');
      anaSays = 'accept';
      const first = await call('parley_commit', { proposal });
      // Ana was shown the proposal with no approvals yet, approved, and that is one of two.
      expect(host.elicited).toHaveLength(1);
      expect(host.elicited[0]?.message).toContain(SAY(0));
      expect(isToolError(first)).toBe(true);
      expect(textOf(first)).toMatch(/consent_required: 1 of 2 approvals: the people listed must/);
      expect(textOf(first)).toContain('Your user’s approval is counted.');
      expect(textOf(first)).toContain(`1 more of the 3 people listed must approve: each runs \``);
      expect(textOf(first)).toMatch(
        /or approves on their own device from the file `.*approve p_\S+ --export request\.json` writes/,
      );
      expect(await stock('cab-1a')).toBe(before);

      // Ana's key again (another grant of hers) and Dee's, whom the caveat does not list.
      const consent = (first.structuredContent as { consent: Consent }).consent;
      expect(consent.approvals).toEqual({
        of: [at.people.ana.key, at.people.ben.key, at.people.cy.key],
        need: 2,
        have: 1,
      });
      await walletGets('ana', consent, 'ana-again');
      await walletGets('dee', consent, 'dee');
      const still = await call('parley_commit', { proposal });
      expect(isToolError(still)).toBe(true);
      expect(textOf(still)).toMatch(/consent_required: 1 of 2 approvals/);
      expect((still.structuredContent as { consent: Consent }).consent.approvals?.have).toBe(1);
      // Ana already approved this proposal: she is not asked again.
      expect(host.elicited).toHaveLength(1);
      expect(await stock('cab-1a')).toBe(before);

      const ben = await approveAs('ben', proposal);
      expect(ben.code).toBe(0);
      expect(ben.stdout).toContain('Approvals: 1 of 2 approvals so far, from 3 people listed');
      const done = await call('parley_commit', { proposal });
      expect(isToolError(done)).toBe(false);
      expect(textOf(done)).toMatch(/^✓ Order .* \(receipt r_[\w-]+\)/);
      expect(host.elicited).toHaveLength(1);
      expect(await stock('cab-1a')).toBe((before ?? 0) - 1);
    });

    it('a person on their own device approves from the exported request; the waiting bridge then commits', async () => {
      // An item of its own: the other tests use up cab-1a's stock.
      const before = await stock('cab-2b');
      const proposal = await order('cab-2b');
      anaSays = 'accept';
      const first = await call('parley_commit', { proposal });
      expect(textOf(first)).toMatch(/consent_required: 1 of 2 approvals/);

      // The bridge kept the request in the agent's home: it is exported, and Ben, in a home of
      // his own (another device), approves it at his terminal; his grant comes back by file.
      const request = join(folder.path, `request-${era}.json`);
      const approval = join(folder.path, `ben-${era}.pg1`);
      expect((await runCli(['approve', proposal, '--export', request], env)).code).toBe(0);
      const ben = await runCliAtTerminal(
        ['approve', '--request', request, '--out', approval],
        { PARLEY_HOME: join(folder.path, 'ben') },
        PROMPT,
        'y',
      );
      expect(ben.code).toBe(0);
      expect(ben.stdout).toContain(SAY(1));
      expect((await runCli(['grants', 'add', approval], env)).code).toBe(0);

      const done = await call('parley_commit', { proposal });
      expect(isToolError(done)).toBe(false);
      expect(textOf(done)).toMatch(/^✓ Order .* \(receipt r_[\w-]+\)/);
      expect(await stock('cab-2b')).toBe((before ?? 0) - 1);
    });

    it('after another person approved first, the elicitation says "1 of 2 approvals"', async () => {
      const before = await stock('cab-1a');
      const proposal = await order('cab-1a');
      const asked = host.elicited.length;
      anaSays = 'decline';
      const declined = await call('parley_commit', { proposal });
      expect(textOf(declined)).toBe(
        `Your user did not approve proposal ${proposal}; nothing was committed or signed.`,
      );
      expect(host.elicited[asked]?.message).toContain(SAY(0));

      // The request was kept for the others listed: Ben approves at his terminal.
      const ben = await approveAs('ben', proposal);
      expect(ben.code).toBe(0);
      anaSays = 'accept';
      const done = await call('parley_commit', { proposal });
      expect(host.elicited).toHaveLength(asked + 2);
      expect(host.elicited[asked + 1]?.message).toContain(SAY(1));
      expect(isToolError(done)).toBe(false);
      expect(textOf(done)).toMatch(/^✓ Order .* \(receipt r_[\w-]+\)/);
      expect(await stock('cab-1a')).toBe((before ?? 0) - 1);
    });
  },
);

describe('parley mcp --principal', () => {
  it('refuses --principal without --principal-consent, in one sentence', async () => {
    const refused = await runCli(
      ['mcp', '--principal', at.people.ana.file, 'parley://127.0.0.1:9'],
      env,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('parley: --principal goes with --principal-consent\n');
  });
});
