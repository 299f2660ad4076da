import { createHash, createPublicKey, verify as nodeVerify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defaultCrypto as nodeCrypto } from './node.js';
import type { CryptoPort } from './port.js';
import { randomBytes } from './port.js';
import { defaultCrypto as webCrypto } from './web.js';

const hex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));
const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

// RFC 8032 §7.1, tests 1 and 2.
const RFC8032 = [
  {
    seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    publicKey: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    signature:
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    seed: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    publicKey: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: '72',
    signature:
      '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
];

const PORTS: [string, CryptoPort][] = [
  ['node:crypto', nodeCrypto],
  ['WebCrypto', webCrypto],
];

// One contract suite that every CryptoPort runs (§6.1 keys and signatures, §5.1 and §6.2 hashes).
describe.each(PORTS)('§6.1 CryptoPort contract: %s', (_name, port) => {
  it.each(RFC8032.map((v, i) => [i + 1, v] as const))(
    'reproduces RFC 8032 test %i',
    async (_n, v) => {
      expect(toHex(await port.publicKeyFromSeed(hex(v.seed)))).toBe(v.publicKey);
      const signature = await port.sign(hex(v.seed), hex(v.message));
      expect(toHex(signature)).toBe(v.signature);
      expect(await port.verify(hex(v.publicKey), hex(v.message), signature)).toBe(true);
    },
  );

  it('signs and verifies random messages, and rejects any change', async () => {
    const seed = randomBytes(32);
    const publicKey = await port.publicKeyFromSeed(seed);
    for (const length of [0, 1, 64, 1000]) {
      const message = randomBytes(length);
      const signature = await port.sign(seed, message);
      expect(signature).toHaveLength(64);
      expect(await port.verify(publicKey, message, signature)).toBe(true);
      const otherMessage = new Uint8Array([...message, 0]);
      expect(await port.verify(publicKey, otherMessage, signature)).toBe(false);
      const otherSignature = new Uint8Array(signature);
      otherSignature[0] = (otherSignature[0] as number) ^ 1;
      expect(await port.verify(publicKey, message, otherSignature)).toBe(false);
      const otherKey = await port.publicKeyFromSeed(randomBytes(32));
      expect(await port.verify(otherKey, message, signature)).toBe(false);
    }
  });

  it('hashes like node:crypto SHA-256', () => {
    for (const length of [0, 55, 56, 64, 65, 5000]) {
      const data = randomBytes(length);
      expect(port.sha256(data)).toEqual(new Uint8Array(createHash('sha256').update(data).digest()));
    }
  });

  it('uses a key once and again without mixing up cached keys', async () => {
    const seeds = [randomBytes(32), randomBytes(32)];
    const message = randomBytes(10);
    const keys = await Promise.all(seeds.map((s) => port.publicKeyFromSeed(s)));
    const signatures = await Promise.all(seeds.map((s) => port.sign(s, message)));
    for (let round = 0; round < 2; round++) {
      expect(await port.verify(keys[0] as Uint8Array, message, signatures[0] as Uint8Array)).toBe(
        true,
      );
      expect(await port.verify(keys[1] as Uint8Array, message, signatures[0] as Uint8Array)).toBe(
        false,
      );
    }
  });
});

describe('§6.1 the two ports agree', () => {
  it('derive the same public key and (deterministic Ed25519) the same signature', async () => {
    const seed = randomBytes(32);
    const message = randomBytes(100);
    expect(await webCrypto.publicKeyFromSeed(seed)).toEqual(
      await nodeCrypto.publicKeyFromSeed(seed),
    );
    const signature = await nodeCrypto.sign(seed, message);
    expect(await webCrypto.sign(seed, message)).toEqual(signature);
    expect(
      await webCrypto.verify(await nodeCrypto.publicKeyFromSeed(seed), message, signature),
    ).toBe(true);
  });
});

describe('randomBytes', () => {
  it('draws bytes of the length asked, fresh on every call, across refills of its pool', () => {
    const seen = new Set<string>();
    // 12-byte ids, as a service draws them: far more than one pool holds.
    for (let i = 0; i < 2000; i++) {
      const id = randomBytes(12);
      expect(id).toHaveLength(12);
      seen.add(toHex(id));
    }
    expect(seen.size).toBe(2000);
    expect(randomBytes(0)).toHaveLength(0);
    const large = randomBytes(60_000);
    expect(large).toHaveLength(60_000);
    expect(new Set(large).size).toBe(256);
  });

  it('hands out copies: changing one draw changes no later one', () => {
    const first = randomBytes(32);
    first.fill(0);
    const next = randomBytes(32);
    expect(next.some((b) => b !== 0)).toBe(true);
    expect(next.buffer).not.toBe(first.buffer);
  });

  it.each([-1, 1.5, Number.NaN])('refuses the length %d with a RangeError', (length) => {
    expect(() => randomBytes(length)).toThrow(RangeError);
  });
});

describe('node:crypto port shortcuts', () => {
  it.each([
    ['', 'ASCII empty'],
    ['dGhlIHNpZ25hdHVyZQ', 'b64url text'],
    ['caf\u00e9 \u{1f600}', 'non-ASCII'],
    ['lone \ud800 surrogate', 'a lone surrogate (UTF-8 of U+FFFD)'],
  ])('sha256Text(%j) is b64url(sha256(utf8(text))) (%s)', (text) => {
    const expected = createHash('sha256')
      .update(new TextEncoder().encode(text))
      .digest('base64url');
    expect(nodeCrypto.sha256Text?.(text)).toBe(expected);
  });

  it.each([
    [[], 'no piece'],
    [['{"a": ', '"caf\u00e9"', '', ', "b": "\u{1f600}"}'], 'non-ASCII pieces and an empty one'],
    [['x'.repeat(70_000), 'y'], 'a piece past a block boundary'],
  ])('sha256Pieces(%#) is sha256 of the joined text (%s)', (pieces) => {
    const expected = createHash('sha256')
      .update(new TextEncoder().encode(pieces.join('')))
      .digest();
    expect(nodeCrypto.sha256Pieces?.(pieces)).toEqual(new Uint8Array(expected));
  });

  it('verifies with the key now in an array, even if the array changed since', async () => {
    const seeds = [randomBytes(32), randomBytes(32)];
    const keys = [
      await nodeCrypto.publicKeyFromSeed(seeds[0] as Uint8Array),
      await nodeCrypto.publicKeyFromSeed(seeds[1] as Uint8Array),
    ];
    const message = randomBytes(20);
    const signature = await nodeCrypto.sign(seeds[1] as Uint8Array, message);
    const array = new Uint8Array(keys[0] as Uint8Array);
    expect(nodeCrypto.verify(array, message, signature)).toBe(false);
    array.set(keys[1] as Uint8Array);
    expect(nodeCrypto.verify(array, message, signature)).toBe(true);
  });

  it('takes any 32 bytes as a key, as node:crypto does with the same key in DER', async () => {
    // Random bytes are often not a curve point; the outcome must be DER's, never a throw.
    const spki = Buffer.from('302a300506032b6570032100', 'hex');
    const seed = randomBytes(32);
    const message = randomBytes(20);
    const signature = await nodeCrypto.sign(seed, message);
    const keys = [await nodeCrypto.publicKeyFromSeed(seed)];
    for (let i = 0; i < 64; i++) keys.push(randomBytes(32));
    for (const key of keys) {
      const der = createPublicKey({ key: Buffer.concat([spki, key]), format: 'der', type: 'spki' });
      expect(nodeCrypto.verify(key, message, signature)).toBe(
        nodeVerify(null, message, der, signature),
      );
    }
    expect(nodeCrypto.verify(keys[0] as Uint8Array, message, signature)).toBe(true);
  });
});
