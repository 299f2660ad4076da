import { encodeB64url } from '../b64url.js';
import { canonicalize } from '../canonical.js';
import { randomBytes } from '../crypto/port.js';
import type { Consent } from '../errors.js';
import { type KeyPair, parsePublicKey, publicKeyString, sign, utf8 } from '../keys.js';
import { assertWellFormedCaveats } from './caveats.js';
import { GrantIssueError } from './grant-issue-error.js';
import { blockId, decodeGrant, grantHolder } from './token.js';
import type { Block, Caveat, DelegationPayload, Grant, RootPayload } from './types.js';

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export interface IssueOptions {
  /** The holder's public key ("ed25519:…"). */
  sub: string;
  caveats: Caveat[];
  /** Issue time in unix seconds; defaults to now. */
  iat?: number;
  /** Root nonce; defaults to 128 random bits. */
  nonce?: string;
}

async function signBlock<P extends RootPayload | DelegationPayload>(
  signer: KeyPair,
  payload: P,
): Promise<Block<P>> {
  return { p: payload, s: await sign(signer, utf8(canonicalize(payload))) };
}

function checkOptions(options: { sub: string; caveats: Caveat[]; iat?: number }): void {
  parsePublicKey(options.sub);
  assertWellFormedCaveats(options.caveats);
  if (options.iat !== undefined && !Number.isSafeInteger(options.iat)) {
    throw new GrantIssueError('iat must be an integer (unix seconds)');
  }
}

/** §6.2: a root grant from a principal to a holder, signed by the principal. */
export async function issueGrant(principal: KeyPair, options: IssueOptions): Promise<Grant> {
  checkOptions(options);
  const payload: RootPayload = {
    iss: publicKeyString(principal),
    sub: options.sub,
    caveats: options.caveats,
    iat: options.iat ?? nowSeconds(),
    nonce: options.nonce ?? encodeB64url(randomBytes(16)),
  };
  return [await signBlock(principal, payload)];
}

/**
 * §6.2: appends a delegation block, signed by the current holder, to hand a narrower grant to
 * another key. Caveats accumulate, so the result can only be narrower than its parent.
 */
export async function delegateGrant(
  parent: Grant | string,
  holder: KeyPair,
  options: Omit<IssueOptions, 'nonce'>,
): Promise<Grant> {
  const blocks = typeof parent === 'string' ? decodeGrant(parent) : parent;
  if (grantHolder(blocks) !== publicKeyString(holder)) {
    throw new GrantIssueError('only the holder of a grant can delegate it');
  }
  checkOptions(options);
  const last = blocks[blocks.length - 1] as Block;
  const payload: DelegationPayload = {
    prev: blockId(last),
    sub: options.sub,
    caveats: options.caveats,
    iat: options.iat ?? nowSeconds(),
  };
  return [...blocks, await signBlock(holder, payload)];
}

/**
 * §6.6: the principal's one-shot consent: a root grant to the agent with exactly the five scoped
 * caveats, so it authorizes a COMMIT of this one proposal at this one service and nothing else.
 */
export async function consentGrant(
  principal: KeyPair,
  consent: Consent,
  agentKey: string,
  options: { iat?: number; nonce?: string } = {},
): Promise<Grant> {
  // §E4: with approvals, each listed key signs a consent grant of its own.
  const signer = publicKeyString(principal);
  if (consent.principal !== signer && consent.approvals?.of.includes(signer) !== true) {
    throw new GrantIssueError('the consent request names another principal');
  }
  const caveats: Caveat[] = [
    { svc: [consent.service] },
    { verbs: ['COMMIT'] },
    { can: [consent.capability] },
    { only: consent.hash },
    { exp: consent.expires },
  ];
  return issueGrant(principal, { sub: agentKey, caveats, ...options });
}
