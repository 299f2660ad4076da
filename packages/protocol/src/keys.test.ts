import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeB64url, encodeB64url } from './b64url.js';
import { cryptoPort, setCryptoPort } from './crypto/backend.js';
import { defaultCrypto as nodeCrypto } from './crypto/node.js';
import type { CryptoPort } from './crypto/port.js';
import { defaultCrypto as webCrypto } from './crypto/web.js';
import { EncodingError } from './encoding-error.js';
import {
  generateKeyPair,
  isPublicKey,
  KEY_PREFIX,
  type KeyPair,
  keyPairFromSeed,
  parsePublicKey,
  publicKeyString,
  SIGNATURE_BYTES,
  sha256,
  sha256Pieces,
  sign,
  utf8,
  verify,
} from './keys.js';

const seedOf = (n: number): Uint8Array => new Uint8Array(32).fill(n);
const keyOf = (bytes: number): string => KEY_PREFIX + encodeB64url(new Uint8Array(bytes).fill(7));

describe('§6.1 public keys', () => {
  it('round-trips "ed25519:" + b64url(32 bytes)', async () => {
    const pair = await keyPairFromSeed(seedOf(1));
    const text = publicKeyString(pair);
    expect(text.startsWith('ed25519:')).toBe(true);
    expect(text).toHaveLength(8 + 43);
    expect(parsePublicKey(text)).toEqual(pair.publicKey);
    expect(publicKeyString(parsePublicKey(text))).toBe(text);
    expect(isPublicKey(text)).toBe(true);
  });

  it.each([
    ['not a string', 42],
    ['no prefix', encodeB64url(new Uint8Array(32))],
    ['an upper-case prefix', `ED25519:${encodeB64url(new Uint8Array(32))}`],
    ['another algorithm', `x25519:${encodeB64url(new Uint8Array(32))}`],
    ['a prefix without colon', `ed25519${encodeB64url(new Uint8Array(32))}`],
    ['bad base64url', 'ed25519:!!!!'],
    ['padded base64', `${keyOf(32)}=`],
    ['standard base64', `ed25519:${Buffer.from(new Uint8Array(32).fill(0xfb)).toString('base64')}`],
    ['whitespace', ` ${keyOf(32)}`],
    ['31 bytes', keyOf(31)],
    ['33 bytes', keyOf(33)],
    ['64 bytes', keyOf(64)],
    ['no bytes', 'ed25519:'],
  ])('rejects %s with an EncodingError', (_what, text) => {
    expect(() => parsePublicKey(text)).toThrow(EncodingError);
    expect(isPublicKey(text)).toBe(false);
  });

  it('rejects raw keys of the wrong length in publicKeyString', () => {
    expect(() => publicKeyString(new Uint8Array(31))).toThrow(EncodingError);
  });

  it('rejects seeds that are not 32 bytes', async () => {
    await expect(keyPairFromSeed(new Uint8Array(31))).rejects.toThrow(EncodingError);
    await expect(keyPairFromSeed('seed' as unknown as Uint8Array)).rejects.toThrow(EncodingError);
  });

  it('copies the seed, so later changes to the caller buffer do not change the key', async () => {
    const seed = seedOf(3);
    const pair = await keyPairFromSeed(seed);
    seed.fill(4);
    expect(pair.seed).toEqual(seedOf(3));
  });
});

const PORTS: [string, CryptoPort][] = [
  ['node:crypto', nodeCrypto],
  ['WebCrypto', webCrypto],
];

describe.each(PORTS)('§6.1 sign and verify on the %s port', (_name, port) => {
  let previous: CryptoPort;
  let alice: KeyPair;
  let bob: KeyPair;
  const message = utf8('{"aud":"svc.example","target":"x","ts":1,"verb":"ASK"}');

  beforeAll(async () => {
    previous = setCryptoPort(port);
    alice = await keyPairFromSeed(seedOf(1));
    bob = await generateKeyPair();
  });
  afterAll(() => {
    setCryptoPort(previous);
  });

  it('is the active port', () => {
    expect(cryptoPort()).toBe(port);
  });

  it('round-trips a signature as b64url of 64 bytes', async () => {
    const signature = await sign(alice, message);
    expect(decodeB64url(signature)).toHaveLength(SIGNATURE_BYTES);
    await expect(verify(publicKeyString(alice), message, signature)).resolves.toBe(true);
    await expect(verify(alice.publicKey, message, decodeB64url(signature))).resolves.toBe(true);
  });

  it('rejects another message, another key and a changed signature', async () => {
    const signature = await sign(alice, message);
    await expect(verify(publicKeyString(alice), utf8('other'), signature)).resolves.toBe(false);
    await expect(verify(publicKeyString(bob), message, signature)).resolves.toBe(false);
    const flipped = decodeB64url(signature);
    flipped[10] = (flipped[10] as number) ^ 0x40;
    await expect(verify(publicKeyString(alice), message, flipped)).resolves.toBe(false);
  });

  it('returns false, never throws, for malformed keys', async () => {
    const signature = await sign(alice, message);
    for (const key of [
      '',
      'nope',
      'ed25519:',
      'ed25519:!!',
      keyOf(31),
      keyOf(33),
      new Uint8Array(31),
      new Uint8Array(33),
      // Not a point on the curve, or a small-order point: never a valid signer.
      new Uint8Array(32).fill(0xff),
      new Uint8Array(32),
      42 as unknown as string,
      null as unknown as string,
    ]) {
      await expect(verify(key, message, signature)).resolves.toBe(false);
    }
  });

  it('returns false, never throws, for malformed signatures', async () => {
    const signature = await sign(alice, message);
    const key = publicKeyString(alice);
    for (const bad of [
      '',
      'not base64url!',
      `${signature}=`,
      signature.slice(0, -1),
      `${signature}A`,
      encodeB64url(new Uint8Array(63)),
      encodeB64url(new Uint8Array(65)),
      encodeB64url(new Uint8Array(64)),
      encodeB64url(new Uint8Array(64).fill(0xff)),
      new Uint8Array(10),
      null as unknown as string,
    ]) {
      await expect(verify(key, message, bad)).resolves.toBe(false);
    }
  });

  it('signs deterministically, identically to the other port', async () => {
    const here = await sign(alice, message);
    const nodeSignature = encodeB64url(await nodeCrypto.sign(alice.seed, message));
    expect(here).toBe(nodeSignature);
  });
});

describe('setCryptoPort', () => {
  it('returns the previous port so it can be restored', () => {
    const original = cryptoPort();
    const previous = setCryptoPort(webCrypto);
    expect(previous).toBe(original);
    expect(setCryptoPort(previous)).toBe(webCrypto);
    expect(cryptoPort()).toBe(original);
  });
});

describe('sha256Pieces', () => {
  const pieces = ['{"owner": ', '"Zo\u00eb"', '', ', "emoji": "\u{1f600}"}'];
  const expected = sha256(utf8(pieces.join('')));

  it('hashes the pieces as one text, natively on Node', () => {
    expect(sha256Pieces(pieces)).toEqual(expected);
    expect(sha256Pieces([])).toEqual(sha256(new Uint8Array(0)));
  });

  it('joins and hashes where the port cannot hash piece by piece (WebCrypto)', () => {
    const previous = setCryptoPort(webCrypto);
    try {
      expect(webCrypto.sha256Pieces).toBeUndefined();
      expect(sha256Pieces(pieces)).toEqual(expected);
    } finally {
      setCryptoPort(previous);
    }
  });
});
