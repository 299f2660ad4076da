import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { agent, principal, subAgent } from '../../test/fixtures/keys.js';
import { decodeB64url, encodeB64url } from '../b64url.js';
import { canonicalize } from '../canonical.js';
import { publicKeyString } from '../keys.js';
import { MAX_NESTING_DEPTH } from '../nesting.js';
import { delegateGrant, issueGrant } from './issue.js';
import {
  blockId,
  decodeGrant,
  encodeGrant,
  GRANT_PREFIX,
  GrantFormatError,
  grantHolder,
  grantId,
  grantPrincipal,
  MAX_GRANT_BLOCKS,
  MAX_GRANT_TOKEN_LENGTH,
} from './token.js';
import type { Grant } from './types.js';

let root: Grant;
let delegated: Grant;

beforeAll(async () => {
  root = await issueGrant(principal, {
    sub: publicKeyString(agent),
    caveats: [{ svc: ['cal.example.com'] }, { exp: 1_790_003_600 }],
    iat: 1_790_000_000,
    nonce: 'n-1',
  });
  delegated = await delegateGrant(root, agent, {
    sub: publicKeyString(subAgent),
    caveats: [{ verbs: ['ASK'] }],
    iat: 1_790_000_010,
  });
});

/** "pg1." + b64url of a JSON text: a token whose body is whatever we say. */
const tokenOf = (json: string): string =>
  GRANT_PREFIX + encodeB64url(new TextEncoder().encode(json));

/** The message decodeGrant throws for a token (the tests below are about the message). */
function decodeError(token: unknown): GrantFormatError {
  try {
    decodeGrant(token as string);
  } catch (error) {
    expect(error).toBeInstanceOf(GrantFormatError);
    expect(error).toBeInstanceOf(TypeError);
    return error as GrantFormatError;
  }
  throw new Error('decodeGrant accepted the token');
}

describe('§6.2 grant tokens', () => {
  it('encode as "pg1." + b64url(utf8(canonical(blocks)))', () => {
    const token = encodeGrant(delegated);
    expect(token.startsWith('pg1.')).toBe(true);
    const body = new TextDecoder().decode(decodeB64url(token.slice(4)));
    expect(body).toBe(canonicalize(delegated));
  });

  it('round-trip through decodeGrant', () => {
    for (const grant of [root, delegated]) {
      expect(decodeGrant(encodeGrant(grant))).toEqual(grant);
      expect(encodeGrant(decodeGrant(encodeGrant(grant)))).toBe(encodeGrant(grant));
    }
  });

  it('decode a short token after a long one to the short one alone (one array for both)', () => {
    const long = encodeGrant(delegated);
    const short = encodeGrant(root);
    expect(long.length).toBeGreaterThan(short.length);
    decodeGrant(long);
    expect(decodeGrant(short)).toEqual(root);
    expect(decodeGrant(long)).toEqual(delegated);
  });

  it('name block ids b64url(sha256(utf8(s))) and the grant id after the root', () => {
    const [first, second] = delegated;
    const expectedId = createHash('sha256').update(first.s, 'utf8').digest('base64url');
    expect(blockId(first)).toBe(expectedId);
    expect(grantId(delegated)).toBe(expectedId);
    expect(grantId(encodeGrant(delegated))).toBe(expectedId);
    expect(grantId(root)).toBe(expectedId);
    expect(second?.p).toHaveProperty('prev', expectedId);
  });

  it('name the principal (root iss) and the holder (last sub)', () => {
    expect(grantPrincipal(delegated)).toBe(publicKeyString(principal));
    expect(grantHolder(root)).toBe(publicKeyString(agent));
    expect(grantHolder(delegated)).toBe(publicKeyString(subAgent));
  });

  it('decode tokens whose JSON is not canonical (structure only is checked)', () => {
    const spaced = tokenOf(JSON.stringify(root, null, 2));
    expect(decodeGrant(spaced)).toEqual(root);
  });
});

describe('§6.2 decodeGrant errors name the problem', () => {
  it('a missing prefix', () => {
    for (const token of ['', 'pg1', 'pg2.W10', 'PG1.W10', encodeGrant(root).slice(4)]) {
      expect(decodeError(token).message).toMatch(/"pg1\."/);
    }
  });

  it('a token that is not a string', () => {
    expect(decodeError(42).message).toMatch(/string/);
  });

  it('a token that is too long', () => {
    const long = GRANT_PREFIX + 'A'.repeat(MAX_GRANT_TOKEN_LENGTH);
    expect(decodeError(long).message).toMatch(/at most/);
  });

  it('bad base64url', () => {
    for (const body of ['!!!!', 'W10=', 'W1 0', 'A', 'W11']) {
      expect(decodeError(GRANT_PREFIX + body).message).toMatch(/base64url/);
    }
  });

  it('bytes that are not UTF-8 JSON', () => {
    expect(decodeError(tokenOf('not json')).message).toMatch(/JSON/);
    expect(decodeError(tokenOf('[{"p":')).message).toMatch(/JSON/);
    expect(
      decodeError(GRANT_PREFIX + encodeB64url(new Uint8Array([0x5b, 0xff, 0x5d]))).message,
    ).toMatch(/UTF-8/);
  });

  it('JSON that is not a list', () => {
    for (const json of ['{}', '"pg1"', '1', 'null', '{"0":{}}']) {
      expect(decodeError(tokenOf(json)).message).toMatch(/list of blocks/);
    }
  });

  it('an empty list', () => {
    expect(decodeError(tokenOf('[]')).message).toMatch(/non-empty/);
  });

  it(`more than ${MAX_GRANT_BLOCKS} blocks`, () => {
    const blocks = Array.from({ length: MAX_GRANT_BLOCKS + 1 }, () => root[0]);
    expect(decodeError(tokenOf(JSON.stringify(blocks))).message).toMatch(
      new RegExp(`at most ${MAX_GRANT_BLOCKS} blocks`),
    );
  });

  it(`payloads nesting deeper than ${MAX_NESTING_DEPTH} levels, at any depth`, () => {
    for (const depth of [MAX_NESTING_DEPTH, 10_000]) {
      const json = `[{"p":{"caveats":[${'['.repeat(depth)}${']'.repeat(depth)}]},"s":""}]`;
      expect(decodeError(tokenOf(json)).message).toMatch(
        new RegExp(`at most ${MAX_NESTING_DEPTH} levels`),
      );
    }
  });

  describe('missing or malformed fields', () => {
    const rootBlock = () => structuredClone(root[0]) as unknown as Record<string, unknown>;
    const link = () => structuredClone(delegated[1]) as unknown as Record<string, unknown>;
    const withRoot = (edit: (p: Record<string, unknown>) => void): string => {
      const block = rootBlock();
      edit(block.p as Record<string, unknown>);
      return tokenOf(JSON.stringify([block]));
    };
    const withLink = (edit: (p: Record<string, unknown>) => void): string => {
      const block = link();
      edit(block.p as Record<string, unknown>);
      return tokenOf(JSON.stringify([root[0], block]));
    };

    it.each<[string, () => string, RegExp]>([
      ['a block that is not an object', () => tokenOf('[1]'), /"p": payload, "s": signature/],
      ['a block without p', () => tokenOf('[{"s":"x"}]'), /"p": payload/],
      ['a block without s', () => tokenOf(JSON.stringify([{ p: root[0].p }])), /signature/],
      ['a numeric s', () => tokenOf(JSON.stringify([{ p: root[0].p, s: 1 }])), /signature/],
      ['a root without sub', () => withRoot((p) => delete p.sub), /"sub"/],
      ['a root with a bad sub', () => withRoot((p) => (p.sub = 'ed25519:xx')), /"sub"/],
      ['a root without caveats', () => withRoot((p) => delete p.caveats), /"caveats"/],
      ['a root with caveats {}', () => withRoot((p) => (p.caveats = {})), /"caveats"/],
      ['a root without iat', () => withRoot((p) => delete p.iat), /"iat"/],
      ['a root with a string iat', () => withRoot((p) => (p.iat = '1')), /"iat"/],
      ['a root without iss', () => withRoot((p) => delete p.iss), /"iss"/],
      ['a root without nonce', () => withRoot((p) => delete p.nonce), /"nonce"/],
      ['a root with prev', () => withRoot((p) => (p.prev = 'x')), /"prev"/],
      ['a delegation without prev', () => withLink((p) => delete p.prev), /"prev"/],
      ['a delegation without sub', () => withLink((p) => delete p.sub), /block 1.*"sub"/],
    ])('%s', (_what, token, pattern) => {
      expect(decodeError(token()).message).toMatch(pattern);
    });
  });

  it('never echo the token, a signature or a key', () => {
    const token = encodeGrant(delegated);
    const secrets = [
      token,
      token.slice(4),
      token.slice(4, 40),
      ...delegated.map((b) => b.s),
      publicKeyString(principal),
      publicKeyString(agent),
      publicKeyString(subAgent),
    ];
    const broken = [
      token.slice(4),
      `${token}=`,
      `${token.slice(0, -3)}!!!`,
      tokenOf(`${canonicalize(delegated)}x`),
      tokenOf(canonicalize(delegated).replace('"iat"', '"iaT"')),
      tokenOf(canonicalize([{ ...delegated[0], s: 5 }])),
    ];
    for (const bad of broken) {
      const message = decodeError(bad).message;
      for (const secret of secrets) expect(message).not.toContain(secret);
    }
  });
});

// Found by mutation testing (npm run mutate -- grants): the bounds themselves and what each
// refusal says were unchecked.
describe('§6.2 grant token bounds and messages', () => {
  it('names its errors GrantFormatError', () => {
    expect(decodeError(42).name).toBe('GrantFormatError');
  });

  it('refuses bytes that are not UTF-8 inside a JSON string, not only around one', () => {
    const text = JSON.stringify(root);
    const at = text.indexOf('"n-1"') + 1;
    const bytes = new TextEncoder().encode(text);
    bytes[at] = 0xff; // the nonce "n-1" becomes "\xff-1": not UTF-8, though the JSON still parses
    expect(decodeError(GRANT_PREFIX + encodeB64url(bytes)).message).toBe(
      'a grant token must encode UTF-8 JSON (a list of blocks)',
    );
  });

  it(`takes a token of exactly ${MAX_GRANT_TOKEN_LENGTH} characters past the length check`, () => {
    const longest = GRANT_PREFIX + 'A'.repeat(MAX_GRANT_TOKEN_LENGTH - GRANT_PREFIX.length);
    expect(decodeError(longest).message).not.toMatch(/at most/);
    expect(decodeError(`${longest}A`).message).toBe(
      `a grant token must be at most ${MAX_GRANT_TOKEN_LENGTH} characters`,
    );
  });

  it(`decodes exactly ${MAX_GRANT_BLOCKS} blocks`, () => {
    const blocks = [root[0], ...Array.from({ length: MAX_GRANT_BLOCKS - 1 }, () => delegated[1])];
    expect(decodeGrant(tokenOf(JSON.stringify(blocks)))).toHaveLength(MAX_GRANT_BLOCKS);
  });

  it('names the block that is not {"p", "s"}: the root, or block i', () => {
    expect(decodeError(tokenOf('[1]')).message).toBe(
      'the root block must be {"p": payload, "s": signature}',
    );
    expect(decodeError(tokenOf(JSON.stringify([root[0], 1]))).message).toBe(
      'block 1 must be {"p": payload, "s": signature}',
    );
  });
});
