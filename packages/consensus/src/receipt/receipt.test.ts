import { describe, expect, it } from 'vitest';
import { testKey } from '../../test/fixtures/keys.js';
import { VENUES, type Venue, venueAgents, venueSheets } from '../../test/fixtures/venues.js';
import { runConsensus, runConsensusAsync } from '../decision/run.js';
import { ConsensusError } from '../errors.js';
import { pyDumps } from '../py-json/dumps.js';
import { parsePyJson } from '../py-json/parse.js';
import type { PyObject, PyValue } from '../py-json/value.js';
import { signAcceptance } from '../ratify/acceptance.js';
import { ratify } from '../ratify/ratify.js';
import { publicKeyHex } from '../signing/keys.js';
import { createSession } from '../signing/session.js';
import { SigningAgent } from '../signing/signing-agent.js';
import { makeReceipt, readReceipt, receiptToDict, writeReceipt } from './receipt.js';
import { verifyReceipt } from './verify-receipt.js';

const OWNERS = ['Ana', 'Bob', 'Cara'];

/** A full receipt: verdict/0.2 signatures, a session, a roster, signed acceptances. */
async function signedReceipt() {
  const keys = await Promise.all([testKey(1), testKey(2), testKey(3)]);
  const roster = {
    Ana: publicKeyHex(keys[0]),
    Bob: publicKeyHex(keys[1]),
    Cara: publicKeyHex(keys[2]),
  };
  const session = createSession(roster);
  const sheets = venueSheets();
  const agents = sheets.map(
    (s, i) => new SigningAgent<Venue>(s.owner, s, keys[i] ?? keys[0], { session }),
  );
  const result = await runConsensusAsync(agents, VENUES);
  const acceptances = await Promise.all(
    sheets.map((s, i) => signAcceptance(ratify(s, result.transcript, true), keys[i] ?? keys[0])),
  );
  const receipt = makeReceipt(result, {
    title: 'Venue',
    participants: OWNERS,
    roster,
    session,
    acceptances,
  });
  return { keys, roster, session, receipt };
}

const statuses = (report: Awaited<ReturnType<typeof verifyReceipt>>) =>
  Object.fromEntries(report.checks.map((c) => [c.name, c.status]));

describe('receipt files', () => {
  it('write and read back to the same receipt', async () => {
    const { receipt } = await signedReceipt();
    const text = writeReceipt(receipt);
    expect(text.startsWith('{\n  "acceptances": [')).toBe(true);
    const back = readReceipt(text);
    expect(pyDumps(receiptToDict(back))).toBe(pyDumps(receiptToDict(receipt)));
    expect(back.transcript.hash()).toBe(receipt.transcript_sha256);
  });

  it('verify every check on a full signed receipt', async () => {
    const { receipt } = await signedReceipt();
    const report = await verifyReceipt(readReceipt(writeReceipt(receipt)));
    expect(report.ok).toBe(true);
    expect(statuses(report)).toEqual({
      'transcript hash': 'ok',
      result: 'ok',
      'max-min': 'ok',
      'verdict signatures': 'ok',
      'acceptance "Ana"': 'ok',
      'acceptance "Bob"': 'ok',
      'acceptance "Cara"': 'ok',
      unanimous: 'info',
    });
    expect(report.notProven.join('\n')).toMatch(/coordinator wrote/);
  });

  it('fail a roster the caller knows differs from the keys used', async () => {
    const { receipt, roster } = await signedReceipt();
    const other = publicKeyHex(await testKey(9));
    const report = await verifyReceipt(receipt, { roster: { ...roster, Bob: other } });
    expect(report.ok).toBe(false);
    expect(statuses(report)['verdict signatures']).toBe('failed');
    expect(statuses(report)['acceptance "Bob"']).toBe('failed');
  });

  it('fail when the session the caller signed in is not the receipt one', async () => {
    const { receipt, roster } = await signedReceipt();
    const report = await verifyReceipt(receipt, { session: createSession(roster) });
    expect(statuses(report)['verdict signatures']).toBe('failed');
  });

  it('fail participants that are not the record, and a false claim', async () => {
    const { receipt } = await signedReceipt();
    const report = await verifyReceipt(receipt, { expectedOwners: ['Ana', 'Bob'] });
    expect(statuses(report)['max-min']).toBe('failed');
    const claims = {
      ...receiptToDict(receipt),
      max_min_verified: false,
      unanimous_acceptance: false,
    };
    const failed = statuses(await verifyReceipt(readReceipt(claims)));
    expect(failed['max-min claim']).toBe('failed');
    expect(failed.unanimous).toBe('failed');
  });

  it('read the receipt parley-consensus examples/real_decision.py writes', async () => {
    const result = runConsensus<Venue>(venueAgents(), VENUES);
    const acceptances = venueSheets().map((s) => ratify(s, result.transcript, true));
    const python: PyObject = {
      title: 'Venue',
      status: result.status,
      decision: result.decision,
      transcript_hash: result.transcript.hash(),
      max_min_verified: true,
      unanimous_acceptance: true,
      acceptances: acceptances.map((a) => ({ ...a })),
      participants: OWNERS,
      transcript: result.transcript.toDict(),
    };
    const report = await verifyReceipt(readReceipt(pyDumps(python, { indent: 2 })));
    expect(report.ok).toBe(true);
    expect(statuses(report).unanimous).toBe('info');
  });

  it('refuse what is not a receipt', () => {
    for (const bad of ['[]', '{}', '{"transcript": {"entries": [], "result": null}}']) {
      expect(() => readReceipt(bad)).toThrow(ConsensusError);
    }
    const wrongShape: PyValue = {
      transcript: { entries: [], result: null },
      transcript_sha256: '0'.repeat(64),
      status: 'deadlock',
      participants: 'Ana',
    };
    expect(() => readReceipt(wrongShape)).toThrow(/participants/);
    const badKey: PyValue = {
      ...(wrongShape as PyObject),
      participants: null,
      roster: { Ana: 'xyz' },
    };
    expect(() => readReceipt(badKey)).toThrow(/roster holds a key/);
    expect(parsePyJson(writeReceipt(makeReceipt(runConsensus([], VENUES))))).toMatchObject({
      format: 'parley-receipt/1',
      status: 'deadlock',
    });
  });
});
