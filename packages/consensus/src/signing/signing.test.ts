import { keyPairFromSeed, publicKeyString, utf8 } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { testKey } from '../../test/fixtures/keys.js';
import { VENUES, type Venue, venueSheets } from '../../test/fixtures/venues.js';
import { runConsensusAsync } from '../decision/run.js';
import { ConsensusError } from '../errors.js';
import { fromHex } from '../hex.js';
import { Transcript } from '../transcript/transcript.js';
import { publicKeyHex, signHex, verifyHex } from './keys.js';
import { acceptancePayload, verdictPayload } from './payloads.js';
import { createSession, type Session } from './session.js';
import { SigningAgent } from './signing-agent.js';
import { verifyTranscript } from './verify-transcript.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('signed payloads: the bytes Python signs', () => {
  it('verdict/0.1 is json.dumps(sort_keys=True) of type, owner, option, verdict', () => {
    expect(
      text(verdictPayload(null, { owner: 'ana', acceptable: true, score: 0, reason: 'ok' })),
    ).toBe(
      '{"acceptable": true, "option": null, "owner": "ana", "reason": "ok", "score": 0.0, "type": "verdict/0.1"}',
    );
  });

  it('verdict/0.2 adds the session nonce and the owner -> key roster', () => {
    const session = { nonce: 'n1', roster: { bob: 'bb', ana: 'aa' } };
    expect(
      text(
        verdictPayload(
          { v: 1 },
          { owner: 'ana', acceptable: false, score: 0, reason: 'red-line' },
          session,
        ),
      ),
    ).toBe(
      '{"acceptable": false, "nonce": "n1", "option": {"v": 1}, "owner": "ana", "reason": "red-line", "roster": {"ana": "aa", "bob": "bb"}, "score": 0.0, "type": "verdict/0.2"}',
    );
  });

  it('acceptance/0.1 binds owner, decision, record hash and answer', () => {
    expect(text(acceptancePayload('ana', null, '0'.repeat(64), true))).toBe(
      `{"accepted": true, "decision": null, "owner": "ana", "transcript_hash": "${'0'.repeat(64)}", "type": "acceptance/0.1"}`,
    );
  });
});

describe('Ed25519 in lowercase hex', () => {
  it('matches RFC 8032 test 1', async () => {
    const seed = fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    const key = await keyPairFromSeed(seed ?? new Uint8Array());
    const pub = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
    expect(publicKeyHex(key)).toBe(pub);
    const sig = await signHex(key, new Uint8Array());
    expect(sig).toBe(
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    );
    expect(await verifyHex(pub, new Uint8Array(), sig)).toBe(true);
    expect(await verifyHex(pub, utf8('x'), sig)).toBe(false);
    expect(await verifyHex(pub.toUpperCase(), new Uint8Array(), sig)).toBe(false);
    expect(await verifyHex('zz', new Uint8Array(), sig)).toBe(false);
  });

  it('reads a key from hex, "ed25519:" form, bytes or a key pair', async () => {
    const key = await testKey(1);
    const hex = publicKeyHex(key);
    expect(publicKeyHex(publicKeyString(key))).toBe(hex);
    expect(publicKeyHex(key.publicKey)).toBe(hex);
    expect(publicKeyHex(hex.toUpperCase())).toBe(hex);
    expect(() => publicKeyHex('abc')).toThrow(ConsensusError);
  });
});

const venueKeys = () => Promise.all([testKey(1), testKey(2), testKey(3)]);

async function signedRun(session?: Session) {
  const keys = await venueKeys();
  const agents = venueSheets().map(
    (s, i) => new SigningAgent<Venue>(s.owner, s, keys[i] ?? keys[0], session ? { session } : {}),
  );
  return { keys, result: await runConsensusAsync(agents, VENUES) };
}

describe('verifyTranscript', () => {
  it('verifies every signed verdict (verdict/0.1)', async () => {
    const { result } = await signedRun();
    const check = await verifyTranscript(result.transcript, { requireSigned: true });
    expect(check).toEqual({ ok: true, signed: 9, unsigned: 0 });
    expect(result.decision).toEqual({ venue: 'garden', cost: 600 });
    const v = result.transcript.entries[0]?.verdicts[0];
    expect(v?.sig).toMatch(/^[0-9a-f]{128}$/);
    expect(v?.pubkey_hex).toMatch(/^[0-9a-f]{64}$/);
  });

  it('pins keys to a roster given as hex or "ed25519:" keys', async () => {
    const { keys, result } = await signedRun();
    const [ana, bob, cara] = keys;
    const roster = { Ana: publicKeyString(ana), Bob: publicKeyHex(bob), Cara: publicKeyHex(cara) };
    expect((await verifyTranscript(result.transcript, { roster })).ok).toBe(true);
    const short = { Ana: roster.Ana, Bob: roster.Bob };
    expect(await verifyTranscript(result.transcript, { roster: short })).toMatchObject({
      ok: false,
      code: 'unknown_owner',
    });
  });

  it('checks verdict/0.2 against the session it was signed in', async () => {
    const [ana, bob, cara] = await venueKeys();
    const session = createSession({ Ana: ana, Bob: bob, Cara: cara });
    expect(session.nonce).toMatch(/^[0-9a-f]{64}$/);
    const { result } = await signedRun(session);
    expect(await verifyTranscript(result.transcript, { session })).toEqual({
      ok: true,
      signed: 9,
      unsigned: 0,
    });
    // Read as verdict/0.1, a verdict/0.2 signature does not verify.
    expect(await verifyTranscript(result.transcript)).toMatchObject({
      ok: false,
      code: 'bad_signature',
    });
  });

  it('never echoes a signature or a key in a failure', async () => {
    const { result } = await signedRun();
    const entries = result.transcript.entries.map((e) => ({
      ...e,
      verdicts: e.verdicts.map((v) => ({ ...v, score: v.score === 0 ? 0.5 : 0 })),
    }));
    const check = await verifyTranscript(new Transcript(entries, result.transcript.result));
    expect(check.ok).toBe(false);
    const first = result.transcript.entries[0]?.verdicts[0];
    const reason = check.ok ? '' : check.reason;
    expect(reason).not.toContain(first?.sig ?? '-');
    expect(reason).not.toContain(first?.pubkey_hex ?? '-');
  });

  it('fails a verdict with a signature but no key', async () => {
    const { result } = await signedRun();
    const [first, ...rest] = result.transcript.entries;
    const entry = first && {
      ...first,
      verdicts: first.verdicts.map((v) => ({ ...v, pubkey_hex: null })),
    };
    const t = new Transcript(entry ? [entry, ...rest] : rest, result.transcript.result);
    expect(await verifyTranscript(t)).toMatchObject({ ok: false, code: 'bad_signature' });
  });
});
