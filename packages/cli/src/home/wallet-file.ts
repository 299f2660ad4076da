import { join } from 'node:path';
import { Wallet } from '@parley/client';
import {
  decodeGrant,
  type Grant,
  grantHolder,
  grantId,
  grantRevocationTargets,
  isPlainObject,
  type KeyPair,
  publicKeyString,
  readCaveat,
} from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { readJsonFile, writeJsonFile } from './json-file.js';

/**
 * The agent's grants: PARLEY_HOME/grants.json, `{"grants": ["pg1.…", …], "consumed": {…}}`.
 * `consumed` maps the id of each one-shot consent grant (§6.6, an `only` caveat) whose proposal
 * was committed to the receipt id: such a grant has done its one job.
 */
export function walletPath(home: string): string {
  return join(home, 'grants.json');
}

/** The wallet file's contents. */
export type WalletFile = { grants: string[]; consumed: Record<string, string> };

/** The wallet file, empty when there is none; CliError when it is malformed. */
export function readWallet(home: string): WalletFile {
  const path = walletPath(home);
  const body = readJsonFile(path);
  if (body === undefined) return { grants: [], consumed: {} };
  const grants = isPlainObject(body) ? body.grants : null;
  const consumed = isPlainObject(body) ? (body.consumed ?? {}) : null;
  if (
    !Array.isArray(grants) ||
    !grants.every((t) => typeof t === 'string') ||
    !isPlainObject(consumed) ||
    !Object.values(consumed).every((r) => typeof r === 'string')
  ) {
    throw new CliError(`${path} must be {"grants": ["pg1.…", …]}; fix or remove it`);
  }
  return { grants, consumed: consumed as Record<string, string> };
}

/** Every token in the wallet file, in the order they were added. */
export function readGrantTokens(home: string): string[] {
  return readWallet(home).grants;
}

/**
 * Adds a token to the wallet file (once) and drops expired ones, which authorize nothing (used
 * consent grants expire with their proposal); returns the new grant's id.
 */
export function saveGrantToken(home: string, token: string, now: number): string {
  const id = grantId(token);
  const wallet = readWallet(home);
  const kept = wallet.grants.filter((held) => held !== token && !expired(held, now));
  writeWallet(home, [...kept, token], wallet.consumed);
  return id;
}

/**
 * §6.6: marks the consent grants for the proposal whose hash is `hash` as consumed by the
 * receipt `receiptId` (a proposal commits once, §4.4); returns how many there were.
 */
export function markConsentsConsumed(home: string, hash: string, receiptId: string): number {
  const wallet = readWallet(home);
  let marked = 0;
  for (const token of wallet.grants) {
    const grant = decodeOrUndefined(token);
    if (grant === undefined || grantOnly(grant) !== hash) continue;
    wallet.consumed[grantId(token)] = receiptId;
    marked++;
  }
  if (marked > 0) writeWallet(home, wallet.grants, wallet.consumed);
  return marked;
}

/** The receipt that consumed a one-shot consent grant, or undefined. */
export function consumedBy(wallet: WalletFile, token: string): string | undefined {
  const id = safeGrantId(token);
  return id === undefined ? undefined : wallet.consumed[id];
}

/** The hash an `only` caveat (§6.3) in any block of a grant names, or undefined. */
export function grantOnly(grant: Grant): string | undefined {
  for (const block of grant) {
    for (const caveat of block.p.caveats) {
      const read = readCaveat(caveat);
      if ('name' in read && read.name === 'only') return read.value;
    }
  }
  return undefined;
}

function writeWallet(home: string, grants: string[], consumed: Record<string, string>): void {
  const ids = new Set(grants.map((token) => safeGrantId(token)));
  const kept = Object.fromEntries(Object.entries(consumed).filter(([id]) => ids.has(id)));
  writeJsonFile(
    walletPath(home),
    Object.keys(kept).length === 0 ? { grants } : { grants, consumed: kept },
  );
}

/** The id of a grant token, or undefined when it does not decode. */
export function safeGrantId(token: string): string | undefined {
  try {
    return grantId(token);
  } catch {
    return undefined;
  }
}

function decodeOrUndefined(token: string): Grant | undefined {
  try {
    return decodeGrant(token);
  } catch {
    return undefined;
  }
}

function expired(token: string, now: number): boolean {
  try {
    const exp = grantExpiry(decodeGrant(token));
    return exp !== undefined && exp <= now;
  } catch {
    // A token that does not decode is kept for the person to look at (loadWallet skips it).
    return false;
  }
}

/** The earliest `exp` caveat in any block of a grant: after it the grant authorizes nothing. */
export function grantExpiry(grant: Grant): number | undefined {
  let earliest: number | undefined;
  for (const block of grant) {
    for (const caveat of block.p.caveats) {
      const read = readCaveat(caveat);
      if ('name' in read && read.name === 'exp') {
        earliest = earliest === undefined ? read.value : Math.min(earliest, read.value);
      }
    }
  }
  return earliest;
}

/** Where a wallet token stands for the local agent now. */
export type GrantStanding =
  | 'usable'
  | 'expired'
  | 'consumed'
  | 'held by another key'
  | 'does not decode';

/** Whether `token` can authorize anything for `agent` at `now` (§6.3 exp, §6.6 one-shot). */
export function grantStanding(
  wallet: WalletFile,
  token: string,
  agent: string | undefined,
  now: number,
): GrantStanding {
  const grant = decodeOrUndefined(token);
  if (grant === undefined) return 'does not decode';
  if (grantHolder(grant) !== agent) return 'held by another key';
  const exp = grantExpiry(grant);
  if (exp !== undefined && exp <= now) return 'expired';
  if (consumedBy(wallet, token) !== undefined) return 'consumed';
  return 'usable';
}

/**
 * A client Wallet with the agent key and the usable grants of the wallet file: those held by
 * this key, not yet expired and not consumed. Tokens that do not decode are skipped with a warning.
 */
export function loadWallet(
  home: string,
  agent: KeyPair,
  now: number,
  warn: (line: string) => void,
): Wallet {
  const holder = publicKeyString(agent);
  const wallet = readWallet(home);
  const usable: string[] = [];
  for (const token of wallet.grants) {
    const standing = grantStanding(wallet, token, holder, now);
    if (standing === 'does not decode') {
      warn(`skipping a grant in ${walletPath(home)} that does not decode`);
    }
    if (standing === 'usable') usable.push(token);
  }
  return new Wallet(agent, { grants: usable });
}

/**
 * docs/extensions.md §E2: removes from the wallet every grant whose chain holds the revoked
 * target (`block:ID` or `key:PRINCIPAL:KEY`); how many were removed.
 */
export function dropRevokedGrants(home: string, target: string): number {
  const wallet = readWallet(home);
  const kept = wallet.grants.filter((token) => !grantRevocationTargets(token).includes(target));
  const dropped = wallet.grants.length - kept.length;
  if (dropped > 0) writeWallet(home, kept, wallet.consumed);
  return dropped;
}
