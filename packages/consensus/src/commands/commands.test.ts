import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pyDumps } from '../py-json/dumps.js';
import { parsePyJson } from '../py-json/parse.js';
import type { PyObject } from '../py-json/value.js';
import { checkPartyCommand } from './check-party.js';
import { decideCommand } from './decide.js';
import { verifyReceiptCommand } from './verify-receipt.js';

const recipe = (name: string) =>
  readFileSync(new URL(`../../recipes/${name}.json`, import.meta.url), 'utf8');
const KYC = recipe('recipe_kyc');

describe('decideCommand', () => {
  it('prints the decision readably, saying only that an option was blocked', () => {
    const out = decideCommand(KYC);
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe('');
    expect(out.stdout).toContain('Agreed: approve-basic');
    expect(out.stdout).toMatch(/approve-fast\s+blocked by a red line/);
    expect(out.stdout).toMatch(/receipt sha256: [0-9a-f]{64}\n$/);
    // Never whose red line blocked an option.
    for (const owner of ['Compliance', 'Risk', 'Business']) expect(out.stdout).not.toContain(owner);
  });

  it('counts in words that agree with the number: 1 option, 1 party', () => {
    const spec = JSON.stringify({
      title: 'one of each',
      options: [{ id: 'a', cost: 1 }],
      parties: [{ owner: 'P', hard: [], utility: [] }],
    });
    expect(decideCommand(spec).stdout).toContain('1 option, 1 party, 0 blocked by a red line.');
    expect(decideCommand(KYC).stdout).toMatch(/\d+ options, 3 parties, \d+ blocked/);
  });

  it('never shows a red line, in either form', () => {
    const spec = JSON.stringify({
      title: 'secret limits',
      options: [
        { id: 'a', city: 'Oslo' },
        { id: 'b', city: 'Rome' },
      ],
      parties: [
        { owner: 'P', hard: [{ attr: 'city', op: 'not_in', value: ['SECRET-CITY', 'Oslo'] }] },
      ],
    });
    for (const json of [false, true]) {
      const out = decideCommand(spec, { json });
      expect(out.exitCode).toBe(0);
      expect(out.stdout).not.toContain('SECRET-CITY');
      expect(out.stdout).not.toContain('not_in');
    }
  });

  it('prints {status, decision, transcript, transcript_sha256} with --json', () => {
    const out = decideCommand(KYC, { json: true });
    const value = parsePyJson(out.stdout) as PyObject;
    expect(Object.keys(value).sort()).toEqual([
      'decision',
      'status',
      'transcript',
      'transcript_sha256',
    ]);
    expect(value.status).toBe('agreed');
    expect((value.decision as PyObject).id).toBe('approve-basic');
    expect(out.stdout).toMatch(/"score": 1\.0/);
    expect(out.stdout.startsWith('{"decision": {')).toBe(true);
  });

  it('reports a deadlock as an answer', () => {
    const spec =
      '{"title": "none", "options": [{"ok": false}], "parties": [{"owner": "A", "hard": [{"attr": "ok", "op": "==", "value": true}]}]}';
    const out = decideCommand(spec);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain('Deadlock: no option is acceptable to every party.');
    expect(decideCommand(spec, { json: true }).stdout).toContain('"decision": null');
  });

  it('refuses a bad spec with exit 2 and one line naming the problem', () => {
    const out = decideCommand(
      '{"title": "t", "options": [{}], "parties": [{"owner": "A", "hard": [{"attr": "x", "op": "~", "value": 1}]}]}',
    );
    expect(out).toEqual({
      stdout: '',
      stderr:
        'parley decide: parties[0].hard[0].op: unknown operator "~"; use one of == != < <= > >= in not_in\n',
      exitCode: 2,
    });
    expect(decideCommand('{').exitCode).toBe(2);
    // A lone surrogate reads as JSON but has no UTF-8 form, so the record could not be hashed.
    const lone = '{"title": "t", "options": [{"id": "\\ud800"}], "parties": [{"owner": "A"}]}';
    expect(decideCommand(lone)).toMatchObject({
      exitCode: 2,
      stderr: expect.stringMatching(/hashed/),
    });
  });
});

describe('checkPartyCommand', () => {
  const compliance = JSON.stringify((JSON.parse(KYC) as { parties: unknown[] }).parties[0]);

  it('replays one party against a decision, a decide --json output, or a deadlock', () => {
    const decided = decideCommand(KYC, { json: true }).stdout;
    expect(checkPartyCommand(compliance, decided)).toEqual({
      stdout: 'Compliance: every red line holds on this decision.\n',
      stderr: '',
      exitCode: 0,
    });
    expect(checkPartyCommand(compliance, 'null').stdout).toContain('deadlock');
  });

  it('says a red line is crossed, never which', () => {
    const fast =
      '{"id": "approve-fast", "revenue": 10, "risk": 9, "sanctions_ok": false, "edd_done": false}';
    const out = checkPartyCommand(compliance, fast);
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('Compliance: this decision crosses at least one of your red lines.\n');
  });

  it('refuses unusable input with exit 2', () => {
    expect(checkPartyCommand('{"owner": ""}', 'null').exitCode).toBe(2);
    expect(checkPartyCommand(compliance, '[1]').exitCode).toBe(2);
    const risk = '{"owner": "Risk", "hard": [{"attr": "risk", "op": "<=", "value": 7}]}';
    expect(checkPartyCommand(risk, '{"risk": "high"}').exitCode).toBe(2);
  });
});

describe('verifyReceiptCommand', () => {
  it('verifies a decide --json output and says what it does not prove', async () => {
    const out = await verifyReceiptCommand(decideCommand(KYC, { json: true }).stdout);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain('Result: VERIFIED.');
    expect(out.stdout).toContain('What this does not prove:');
    expect(out.stdout).toMatch(/nobody was left out/);
  });

  it('fails an edited record with exit 1, without printing the expected hash', async () => {
    const decided = decideCommand(KYC, { json: true }).stdout;
    const claimed = (parsePyJson(decided) as PyObject).transcript_sha256 as string;
    const receipt = parsePyJson(decided) as { transcript: { entries: { option: PyObject }[] } };
    const entry = receipt.transcript.entries[1];
    if (entry) entry.option = { ...entry.option, revenue: 4 };
    const edited = pyDumps(receipt as unknown as PyObject);
    const out = await verifyReceiptCommand(edited);
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toMatch(/FAILED\s+transcript hash/);
    expect(out.stdout).toContain('Result: FAILED.');
    const recomputed = (await import('../receipt/receipt.js'))
      .readReceipt(edited)
      .transcript.hash();
    expect(out.stdout).not.toContain(recomputed);
    expect(out.stdout).not.toContain(claimed);
  });

  it('refuses a file that is not a receipt with exit 2', async () => {
    expect((await verifyReceiptCommand('{"status": "agreed"}')).exitCode).toBe(2);
    expect((await verifyReceiptCommand('not json')).exitCode).toBe(2);
    const lone =
      '{"transcript": {"entries": [{"option": "\\udc00", "verdicts": []}], "result": null}, "transcript_sha256": "00"}';
    expect((await verifyReceiptCommand(lone)).exitCode).toBe(2);
    const odd =
      '{"format": "parley-receipt/9", "transcript": {"entries": [], "result": null}, "transcript_sha256": "00"}';
    expect((await verifyReceiptCommand(odd)).stderr).toContain('unknown receipt format');
  });
});
