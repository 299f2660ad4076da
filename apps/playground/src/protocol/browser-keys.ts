import { Wallet } from '@parley/client';
import {
  decodeB64url,
  encodeB64url,
  generateKeyPair,
  type KeyPair,
  keyPairFromSeed,
  publicKeyString,
} from '@parley/protocol';

/** Where the page keeps its keys and the agent's grants: this browser, this origin, only. */
const STORAGE_KEY = 'parley-playground/keys/v1';

type Stored = { principal: string; agent: string; grants: string[] };

/**
 * The page's two keys, made in this browser (WebCrypto Ed25519 through @parley/protocol), and
 * the grants the principal gave the agent. The principal key signs only when the person clicks
 * (a grant, a consent); the agent code never reaches it (§6.6).
 */
export interface BrowserKeys {
  principal: KeyPair;
  agent: KeyPair;
  principalKey: string;
  agentKey: string;
  wallet: Wallet;
}

function read(): Stored | undefined {
  try {
    const text = window.localStorage.getItem(STORAGE_KEY);
    if (text === null) return undefined;
    const value = JSON.parse(text) as Partial<Stored>;
    if (typeof value.principal !== 'string' || typeof value.agent !== 'string') return undefined;
    return {
      principal: value.principal,
      agent: value.agent,
      grants: Array.isArray(value.grants) ? value.grants.filter((g) => typeof g === 'string') : [],
    };
  } catch {
    return undefined;
  }
}

function write(keys: BrowserKeys): void {
  const stored: Stored = {
    principal: encodeB64url(keys.principal.seed),
    agent: encodeB64url(keys.agent.seed),
    grants: keys.wallet.grants,
  };
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
}

async function assemble(
  principal: KeyPair,
  agent: KeyPair,
  grants: string[],
): Promise<BrowserKeys> {
  const wallet = new Wallet(agent);
  for (const token of grants) {
    try {
      wallet.add(token);
    } catch {
      // A grant for another agent key (keys were replaced) authorizes nothing here: dropped.
    }
  }
  return {
    principal,
    agent,
    principalKey: publicKeyString(principal),
    agentKey: publicKeyString(agent),
    wallet,
  };
}

/** The keys kept in this browser, or fresh ones (kept from now on). */
export async function loadOrCreateKeys(): Promise<{ keys: BrowserKeys; created: boolean }> {
  const stored = read();
  if (stored !== undefined) {
    try {
      const keys = await assemble(
        await keyPairFromSeed(decodeB64url(stored.principal)),
        await keyPairFromSeed(decodeB64url(stored.agent)),
        stored.grants,
      );
      return { keys, created: false };
    } catch {
      // Unreadable keys: start over below.
    }
  }
  return { keys: await createKeys(), created: true };
}

/** New principal and agent keys, replacing the old ones and their grants. */
export async function createKeys(): Promise<BrowserKeys> {
  const keys = await assemble(await generateKeyPair(), await generateKeyPair(), []);
  write(keys);
  return keys;
}

/** Keeps the wallet's grants after a change. */
export function saveGrants(keys: BrowserKeys): void {
  write(keys);
}
