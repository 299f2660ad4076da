import { describe, expect, it } from 'vitest';
import { testKey } from '../../test/fixtures/keys.js';
import type { PyObject } from '../py-json/value.js';
import { HardConstraint, PreferenceSheet } from '../sheet/preference-sheet.js';
import { publicKeyHex, verifyHex } from '../signing/keys.js';
import { verdictPayload } from '../signing/payloads.js';
import { Delegate } from './delegate.js';

const sheet = (hard: HardConstraint<PyObject>[] = []) =>
  new PreferenceSheet<PyObject>('Ana', {
    hard: [new HardConstraint('no-mornings', (o) => (o.hour as number) >= 11), ...hard],
    utility: (o) => (o.day === 'tue' ? 1.0 : 0.5),
  });

describe('Delegate: one owner, a private sheet, masked and signed verdicts', () => {
  it('publishes a card with owner, protocol tags and key, and nothing of the sheet', async () => {
    const key = await testKey(1);
    const card = new Delegate(sheet(), { key }).card();
    expect(card).toEqual({
      owner: 'Ana',
      protocol: 'parley/0.1',
      pubkey_hex: publicKeyHex(key),
      protocols: ['parley/0.1', 'parley/0.2'],
    });
    expect(new Delegate(sheet(), { key: null }).card()).toEqual({
      owner: 'Ana',
      protocol: 'parley/0.1',
    });
  });

  it('signs verdict/0.1 over the option and the masked verdict, and verdict/0.2 in a session', async () => {
    const key = await testKey(1);
    const delegate = new Delegate(sheet(), { key });
    const option = { day: 'tue', hour: 14 };
    const v1 = await delegate.consider(option);
    expect(v1).toMatchObject({ owner: 'Ana', acceptable: true, score: 1, reason: 'ok' });
    expect(await verifyHex(publicKeyHex(key), verdictPayload(option, v1), v1.sig ?? '')).toBe(true);
    const opened = delegate.openSession({ nonce: 'n-1', roster: { Ana: publicKeyHex(key) } });
    if (!opened.ok) throw new Error(opened.reason);
    const v2 = await delegate.consider(option, opened.session);
    const payload = verdictPayload(option, v2, opened.session);
    expect(await verifyHex(publicKeyHex(key), payload, v2.sig ?? '')).toBe(true);
    expect(v2.sig).not.toBe(v1.sig);
    const blocked = await delegate.consider({ day: 'mon', hour: 9 });
    expect(blocked).toMatchObject({ acceptable: false, score: 0, reason: 'red-line' });
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
    const verdict = await delegate.consider({ day: 'tue', hour: 14 });
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
    expect((await failing.consider({})).acceptable).toBe(false);
  });

  it('opens a session only under a roster that pins its own key', async () => {
    const [key, other] = [await testKey(1), await testKey(2)];
    const delegate = new Delegate(sheet(), { key, maxSessions: 2 });
    const mine = publicKeyHex(key);
    const refusals = [
      null,
      { nonce: '', roster: { Ana: mine } },
      { nonce: 'x'.repeat(257), roster: { Ana: mine } },
      { nonce: 'n', roster: { Bob: mine } },
      { nonce: 'n', roster: { Ana: publicKeyHex(other) } },
      { nonce: 'n', roster: { Ana: 'zz' } },
      { nonce: 'n', roster: { Ana: 7 } },
    ];
    for (const value of refusals) expect(delegate.openSession(value).ok).toBe(false);
    expect(new Delegate(sheet(), { key: null }).openSession({ nonce: 'n', roster: {} }).ok).toBe(
      false,
    );
    // A nonce cannot be reopened under another roster, and the oldest session is forgotten.
    expect(delegate.openSession({ nonce: 'a', roster: { Ana: mine } }).ok).toBe(true);
    expect(
      delegate.openSession({ nonce: 'a', roster: { Ana: mine, Bob: publicKeyHex(other) } }).ok,
    ).toBe(false);
    delegate.openSession({ nonce: 'b', roster: { Ana: mine } });
    delegate.openSession({ nonce: 'c', roster: { Ana: mine } });
    expect(delegate.session('a')).toBeUndefined();
    expect(delegate.session('c')?.roster).toEqual({ Ana: mine });
  });
});
