import { decodeB64urlInto, decodedLength, encodeB64url } from '../b64url.js';
import { canonicalize } from '../canonical.js';
import { cryptoPort } from '../crypto/backend.js';
import { hasOwn, isPlainObject } from '../json.js';
import { isPublicKey, sha256, utf8 } from '../keys.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../nesting.js';
import type { Block, DelegationPayload, Grant, RootPayload } from './types.js';

/** §6.2: the token prefix. */
export const GRANT_PREFIX = 'pg1.';
/** Bounds that keep a hostile token from costing unbounded work (not in the spec). */
export const MAX_GRANT_BLOCKS = 16;
export const MAX_GRANT_TOKEN_LENGTH = 65_536;

/** A grant token that cannot be decoded; the message names what is wrong. */
export class GrantFormatError extends TypeError {
  override readonly name = 'GrantFormatError';
}

/** §6.2: "pg1." + b64url(utf8(canonical(blocks))). */
export function encodeGrant(grant: Grant): string {
  return GRANT_PREFIX + encodeB64url(utf8(canonicalize(grant)));
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * One array for the bytes of the token being decoded: they are read once, into text, before
 * decodeGrant returns, so no call sees another's. A new array per token (a few hundred bytes,
 * outside the JavaScript heap) cost more than its decoding. At most 48 KiB (the length bound).
 */
let scratch = new Uint8Array(1024);

function tokenBytes(length: number): Uint8Array {
  if (scratch.length < length) scratch = new Uint8Array(length);
  return scratch;
}

/**
 * Decodes a grant token into its blocks, checking structure only (signatures, trust and caveats
 * are verifyGrant's job). Throws GrantFormatError naming what is wrong.
 */
export function decodeGrant(token: string): Grant {
  if (typeof token !== 'string') throw new GrantFormatError('a grant token must be a string');
  if (!token.startsWith(GRANT_PREFIX)) {
    throw new GrantFormatError('a grant token must start with "pg1."');
  }
  if (token.length > MAX_GRANT_TOKEN_LENGTH) {
    throw new GrantFormatError(
      `a grant token must be at most ${MAX_GRANT_TOKEN_LENGTH} characters`,
    );
  }
  const body = token.slice(GRANT_PREFIX.length);
  let length: number;
  try {
    length = decodeB64urlInto(body, tokenBytes(decodedLength(body.length)));
  } catch {
    throw new GrantFormatError('a grant token must be "pg1." followed by unpadded base64url');
  }
  let blocks: unknown;
  try {
    blocks = JSON.parse(decoder.decode(scratch.subarray(0, length)));
  } catch {
    throw new GrantFormatError('a grant token must encode UTF-8 JSON (a list of blocks)');
  }
  if (nestsDeeperThan(blocks)) {
    throw new GrantFormatError(`a grant may nest at most ${MAX_NESTING_DEPTH} levels`);
  }
  if (!Array.isArray(blocks) || blocks.length === 0) {
    throw new GrantFormatError('a grant must be a non-empty list of blocks');
  }
  if (blocks.length > MAX_GRANT_BLOCKS) {
    throw new GrantFormatError(`a grant may have at most ${MAX_GRANT_BLOCKS} blocks`);
  }
  blocks.forEach((block, index) => {
    checkBlock(block, index);
  });
  return blocks as Grant;
}

function checkBlock(block: unknown, index: number): asserts block is Block {
  const where = index === 0 ? 'the root block' : `block ${index}`;
  if (!isPlainObject(block) || !isPlainObject(block.p) || typeof block.s !== 'string') {
    throw new GrantFormatError(`${where} must be {"p": payload, "s": signature}`);
  }
  const p = block.p;
  if (!isPublicKey(p.sub)) throw new GrantFormatError(`${where} must name an ed25519 "sub"`);
  if (!Array.isArray(p.caveats)) throw new GrantFormatError(`${where} must carry a "caveats" list`);
  if (!Number.isSafeInteger(p.iat))
    throw new GrantFormatError(`${where} must carry an integer "iat"`);
  if (index === 0) {
    if (!isPublicKey(p.iss))
      throw new GrantFormatError('the root block must name an ed25519 "iss"');
    if (typeof p.nonce !== 'string')
      throw new GrantFormatError('the root block must carry a "nonce"');
    if (hasOwn(p, 'prev')) throw new GrantFormatError('the root block must not carry "prev"');
  } else if (typeof p.prev !== 'string') {
    throw new GrantFormatError(`${where} must carry "prev", the id of the block before it`);
  }
}

/** §6.2: block id = b64url(sha256(utf8(block.s))). */
export function blockId(block: Block): string {
  const port = cryptoPort();
  return port.sha256Text === undefined
    ? encodeB64url(sha256(utf8(block.s)))
    : port.sha256Text(block.s);
}

/** §6.2: the grant id is the id of its root block. */
export function grantId(grant: Grant | string): string {
  const blocks = typeof grant === 'string' ? decodeGrant(grant) : grant;
  return blockId(blocks[0]);
}

/** The principal (root `iss`) of a grant. */
export function grantPrincipal(grant: Grant): string {
  return grant[0].p.iss;
}

/** The holder (last block's `sub`) of a grant. */
export function grantHolder(grant: Grant): string {
  return (grant[grant.length - 1] as Block).p.sub;
}

export type { Block, DelegationPayload, Grant, RootPayload };
