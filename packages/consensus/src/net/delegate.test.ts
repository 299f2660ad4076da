import { describe, expect, it } from 'vitest';
import { testKey } from '../../test/fixtures/keys.js';
import type { Verdict } from '../decision/verdict.js';
import type { PyObject } from '../py-json/value.js';
import { HardConstraint, PreferenceSheet } from '../sheet/preference-sheet.js';
import { publicKeyHex, verifyHex } from '../signing/keys.js';
import { verdictPayload } from '../signing/payloads.js';
import { createSession } from '../signing/session.js';
import { hashOption } from '../signing/session-options.js';
import { type Answer, Delegate } from './delegate.js';
import { HashedOption } from './hashed-option.js';

const sheet = (hard: HardConstraint<PyObject>[] = []) =>
  new PreferenceSheet<PyObject>('Ana', {
    hard: [new HardConstraint('no-mornings', (o) => (o.hour as number) >= 11), ...hard],
    utility: (o) => (o.day === 'tue' ? 1.0 : 0.5),
  });

const OPTION = { day: 'tue', hour: 14 };
const MORNING = { day: 'mon', hour: 9 };

/** The verdict of an answer that must be one. */
function verdictOf(answer: Answer): Verdict {
  if (!answer.ok) throw new Error(`refused: ${answer.refusal}`);
  return answer.verdict;
}

describe('Delegate: one owner, a private sheet, masked and signed verdicts', () => {
  it('publishes a card with owner, protocol tags, key and limits, and nothing of the sheet', async () => {
    const key = await testKey(1);
    const card = new Delegate(sheet(), { key }).card();
    expect(card).toEqual({
      owner: 'Ana',
      protocol: 'parley/0.1',
      pubkey_hex: publicKeyHex(key),
      protocols: ['parley/0.2'],
      limits: {
        session_required: true,
        options_fixed: true,
        asks_per_option: 1,
        owner_list: false,
      },
    });
    expect(
      new Delegate(sheet(), { key, sessionless: true, options: [OPTION] }).card(),
    ).toMatchObject({
      protocols: ['parley/0.1', 'parley/0.2'],
      limits: { session_required: false, owner_list: true },
    });
    expect(new Delegate(sheet(), { key: null }).card()).toEqual({
      owner: 'Ana',
      protocol: 'parley/0.1',
    });
  });

  it('signs verdict/0.2 in a session bound to its options, and verdict/0.1 outside one only when told', async () => {
    const key = await testKey(1);
    const strict = new Delegate(sheet(), { key });
    expect(await strict.consider(OPTION)).toEqual({ ok: false, refusal: 'session_required' });
    const delegate = new Delegate(sheet(), { key, sessionless: true });
    const v1 = verdictOf(await delegate.consider(OPTION));
    expect(v1).toMatchObject({ owner: 'Ana', acceptable: true, score: 1, reason: 'ok' });
    expect(await verifyHex(publicKeyHex(key), verdictPayload(OPTION, v1), v1.sig ?? '')).toBe(true);
    const opened = delegate.openSession({
      nonce: 'n-1',
      roster: { Ana: publicKeyHex(key) },
      option_hashes: [OPTION, MORNING].map(hashOption),
    });
    if (!opened.ok) throw new Error(opened.reason);
    expect(opened.session).toEqual(
      createSession({ Ana: publicKeyHex(key) }, 'n-1', [OPTION, MORNING]),
    );
    const v2 = verdictOf(await delegate.consider(OPTION, 'n-1'));
    const payload = verdictPayload(OPTION, v2, opened.session);
    expect(await verifyHex(publicKeyHex(key), payload, v2.sig ?? '')).toBe(true);
    expect(v2.sig).not.toBe(v1.sig);
    const blocked = verdictOf(await delegate.consider(MORNING, 'n-1'));
    expect(blocked).toMatchObject({ acceptable: false, score: 0, reason: 'red-line' });
  });

  it('in a session, answers only the options fixed at its start, each once', async () => {
    const key = await testKey(1);
    const delegate = new Delegate(sheet(), { key });
    const roster = { Ana: publicKeyHex(key) };
    const twice = [OPTION, OPTION].map(hashOption);
    expect(delegate.openSession({ nonce: 'a', roster, option_hashes: twice }).ok).toBe(true);
    expect((await delegate.consider(OPTION, 'a')).ok).toBe(true);
    // Listed twice, answered twice; then no more.
    expect((await delegate.consider(OPTION, 'a')).ok).toBe(true);
    expect(await delegate.consider(OPTION, 'a')).toEqual({
      ok: false,
      refusal: 'already_answered',
    });
    expect(await delegate.consider({ day: 'tue', hour: 15 }, 'a')).toEqual({
      ok: false,
      refusal: 'not_in_session',
    });
    expect(await delegate.consider(OPTION, 'b')).toEqual({ ok: false, refusal: 'unknown_session' });
    // Reopening the same session (a retry) does not refill it; other options under its nonce fail.
    expect(delegate.openSession({ nonce: 'a', roster, option_hashes: twice }).ok).toBe(true);
    expect(await delegate.consider(OPTION, 'a')).toEqual({
      ok: false,
      refusal: 'already_answered',
    });
    const other = [hashOption(MORNING)];
    expect(delegate.openSession({ nonce: 'a', roster, option_hashes: other })).toMatchObject({
      ok: false,
      code: 'invalid_session',
    });
  });

  it("with the owner's list, answers about nothing else, in a session or outside one", async () => {
    const key = await testKey(1);
    const delegate = new Delegate(sheet(), { key, sessionless: true, options: [OPTION] });
    const roster = { Ana: publicKeyHex(key) };
    expect((await delegate.consider(OPTION)).ok).toBe(true);
    expect(await delegate.consider(MORNING)).toEqual({ ok: false, refusal: 'option_not_allowed' });
    const off = [OPTION, MORNING].map(hashOption);
    expect(delegate.openSession({ nonce: 'x', roster, option_hashes: off })).toMatchObject({
      ok: false,
      code: 'option_not_allowed',
    });
    expect(
      delegate.openSession({ nonce: 'x', roster, option_hashes: [hashOption(OPTION)] }).ok,
    ).toBe(true);
  });

  it('answers a red line when the sheet throws, and tells only its owner', async () => {
    const seen: unknown[] = [];
    const throwing = new HardConstraint<PyObject>('needs-room', (o) => {
      if (typeof o.room !== 'string') throw new TypeError('room missing: SECRET-ROOM-RULE');
      return true;
    });
    const delegate = new Delegate(sheet([throwing]), {
      key: null,
      onSheetError: (e) => seen.push(e),
    });
    const verdict = verdictOf(await delegate.consider(OPTION));
    expect(verdict).toEqual({
      owner: 'Ana',
      acceptable: false,
      score: 0,
      reason: 'red-line',
      sig: null,
      pubkey_hex: null,
    });
    expect(JSON.stringify(verdict)).not.toContain('SECRET');
    expect(seen).toHaveLength(1);
    const nanUtility = new PreferenceSheet<PyObject>('Ana', { utility: () => Number.NaN });
    const failing = new Delegate(nanUtility, { key: null });
    expect(verdictOf(await failing.consider({})).acceptable).toBe(false);
  });

  it('opens a session only under a roster that pins its own key, over listed options', async () => {
    const [key, other] = [await testKey(1), await testKey(2)];
    const delegate = new Delegate(sheet(), { key, maxSessions: 2 });
    const mine = publicKeyHex(key);
    const option_hashes = [hashOption(OPTION)];
    const refusals = [
      null,
      { nonce: '', roster: { Ana: mine }, option_hashes },
      { nonce: 'x'.repeat(257), roster: { Ana: mine }, option_hashes },
      { nonce: 'n', roster: { Bob: mine }, option_hashes },
      { nonce: 'n', roster: { Ana: publicKeyHex(other) }, option_hashes },
      { nonce: 'n', roster: { Ana: 'zz' }, option_hashes },
      { nonce: 'n', roster: { Ana: 7 }, option_hashes },
      { nonce: 'n', roster: { Ana: mine } },
      { nonce: 'n', roster: { Ana: mine }, option_hashes: [] },
      { nonce: 'n', roster: { Ana: mine }, option_hashes: ['AB'.repeat(32)] },
      { nonce: 'n', roster: { Ana: mine }, option_hashes: Array(501).fill(option_hashes[0]) },
    ];
    for (const value of refusals) expect(delegate.openSession(value).ok).toBe(false);
    expect(
      new Delegate(sheet(), { key: null }).openSession({ nonce: 'n', roster: {}, option_hashes })
        .ok,
    ).toBe(false);
    // A nonce cannot be reopened under another roster, and the oldest session is forgotten.
    expect(delegate.openSession({ nonce: 'a', roster: { Ana: mine }, option_hashes }).ok).toBe(
      true,
    );
    expect(
      delegate.openSession({
        nonce: 'a',
        roster: { Ana: mine, Bob: publicKeyHex(other) },
        option_hashes,
      }).ok,
    ).toBe(false);
    delegate.openSession({ nonce: 'b', roster: { Ana: mine }, option_hashes });
    delegate.openSession({ nonce: 'c', roster: { Ana: mine }, option_hashes });
    expect(delegate.session('a')).toBeUndefined();
    expect(delegate.session('c')?.roster).toEqual({ Ana: mine });
  });

  it('answers in one turn with node:crypto; a HashedOption as the option itself', async () => {
    const key = await testKey(1);
    const [delegate, twin] = [new Delegate(sheet(), { key }), new Delegate(sheet(), { key })];
    const roster = { Ana: publicKeyHex(key) };
    const option_hashes = [OPTION, MORNING].map(hashOption);
    for (const d of [delegate, twin]) d.openSession({ nonce: 'h', roster, option_hashes });
    const plain = twin.answer({ ...OPTION }, 'h');
    expect(plain).not.toBeInstanceOf(Promise);
    const hashed = HashedOption.of({ ...OPTION });
    if (hashed === null) throw new Error('an option that can be written');
    // Signatures are deterministic (Ed25519): the same verdict, byte for byte.
    expect(delegate.answer(hashed, 'h')).toEqual(plain);
    expect(await delegate.consider(hashed, 'h')).toEqual({
      ok: false,
      refusal: 'already_answered',
    });
    const off = HashedOption.of({ day: 'wed', hour: 14 });
    expect(off === null ? null : delegate.answer(off, 'h')).toEqual({
      ok: false,
      refusal: 'not_in_session',
    });
  });
});
