import { join } from 'node:path';
import { Wallet } from '@parley/client';
import {
  decodeGrant,
  type Grant,
  GrantFormatError,
  grantHolder,
  grantId,
  type KeyPair,
  publicKeyString,
  readCaveat,
} from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { readJsonFile, writeJsonFile } from './json-file.js';

/** The agent's grants: PARLEY_HOME/grants.json, `{"grants": ["pg1.…", …]}`. */
export function walletPath(home: string): string {
  return join(home, 'grants.json');
}

/** Every token in the wallet file, in the order they were added. */
export function readGrantTokens(home: string): string[] {
  const path = walletPath(home);
  const body = readJsonFile(path);
  if (body === undefined) return [];
  const grants = typeof body === 'object' && body !== null && 'grants' in body ? body.grants : null;
  if (!Array.isArray(grants) || !grants.every((t) => typeof t === 'string')) {
    throw new CliError(`${path} must be {"grants": ["pg1.…", …]}; fix or remove it`);
  }
  return grants;
}

/**
 * Adds a token to the wallet file (once) and drops expired ones, which authorize nothing (used
 * consent grants expire with their proposal); returns the new grant's id.
 */
export function saveGrantToken(home: string, token: string, now: number): string {
  const id = grantId(token);
  const kept = readGrantTokens(home).filter((held) => held !== token && !expired(held, now));
  writeJsonFile(walletPath(home), { grants: [...kept, token] });
  return id;
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

/**
 * A client Wallet with the agent key and the usable grants of the wallet file: those held by
 * this key and not yet expired. Tokens that do not decode are skipped with a warning.
 */
export function loadWallet(
  home: string,
  agent: KeyPair,
  now: number,
  warn: (line: string) => void,
): Wallet {
  const holder = publicKeyString(agent);
  const usable: string[] = [];
  for (const token of readGrantTokens(home)) {
    let grant: Grant;
    try {
      grant = decodeGrant(token);
    } catch (error) {
      if (!(error instanceof GrantFormatError)) throw error;
      warn(`skipping a grant in ${walletPath(home)} that does not decode: ${error.message}`);
      continue;
    }
    if (grantHolder(grant) !== holder) continue;
    const exp = grantExpiry(grant);
    if (exp !== undefined && exp <= now) continue;
    usable.push(token);
  }
  return new Wallet(agent, { grants: usable });
}
