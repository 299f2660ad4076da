import { Wallet } from '@parley/client';
import {
  type Caveat,
  decodeB64url,
  decodeGrant,
  encodeB64url,
  generateKeyPair,
  type KeyPair,
  keyPairFromSeed,
  publicKeyString,
  readCaveat,
} from '@parley/protocol';

/** Where the page keeps its keys and the agent's grants: this browser, this origin, only. */
const STORAGE_KEY = 'parley-playground/keys/v1';

/** A one-shot consent grant (§6.6) after its COMMIT: kept to show, never presented again. */
export type UsedConsent = { token: string; receipt: string };

type Stored = { principal: string; agent: string; grants: string[]; used: UsedConsent[] };

function isUsedConsent(value: unknown): value is UsedConsent {
  const v = value as Partial<UsedConsent> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.token === 'string' &&
    typeof v.receipt === 'string'
  );
}

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
  /** One-shot consents already used, newest last; no longer in the wallet. */
  used: UsedConsent[];
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
      used: Array.isArray(value.used) ? value.used.filter(isUsedConsent) : [],
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
    used: keys.used,
  };
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
}

async function assemble(
  principal: KeyPair,
  agent: KeyPair,
  grants: string[],
  used: UsedConsent[],
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
    // A kept entry that no longer decodes shows nothing: dropped.
    used: used.filter((u) => onlyHashOf(u.token) !== undefined),
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
        stored.used,
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
  const keys = await assemble(await generateKeyPair(), await generateKeyPair(), [], []);
  write(keys);
  return keys;
}

/** Keeps the wallet's grants after a change. */
export function saveGrants(keys: BrowserKeys): void {
  write(keys);
}

/**
 * §6.6: a one-shot consent grant is spent by the COMMIT of the one proposal its `only` caveat
 * names. Moves every held consent grant for `proposalHash` out of the wallet into `used`, with
 * the receipt that used it, and keeps the change; whether any moved.
 */
export function markConsentUsed(keys: BrowserKeys, proposalHash: string, receipt: string): boolean {
  const spent = keys.wallet.grants.filter((token) => onlyHashOf(token) === proposalHash);
  for (const token of spent) {
    keys.wallet.remove(token);
    keys.used.push({ token, receipt });
  }
  // Only the latest are shown; the rest authorize nothing and need no keeping.
  keys.used.splice(0, Math.max(0, keys.used.length - USED_KEPT));
  if (spent.length > 0) write(keys);
  return spent.length > 0;
}

/** How many used consents are kept to show. */
const USED_KEPT = 20;

/**
 * The proposal hash of a grant's `only` caveat (§6.3), if it has one (undefined if it does not
 * decode).
 */
export function onlyHashOf(token: string): string | undefined {
  let blocks: ReturnType<typeof decodeGrant>;
  try {
    blocks = decodeGrant(token);
  } catch {
    return undefined;
  }
  for (const block of blocks) {
    for (const caveat of block.p.caveats as Caveat[]) {
      const read = readCaveat(caveat);
      if ('name' in read && read.name === 'only') return read.value;
    }
  }
  return undefined;
}

/**
 * docs/extensions.md §E4: the keys that signed a consent grant the agent holds for
 * `proposalHash`, each once: who has approved that proposal so far.
 */
export function consentSignersFor(keys: BrowserKeys, proposalHash: string): Set<string> {
  const signers = new Set<string>();
  for (const token of keys.wallet.grants) {
    if (onlyHashOf(token) === proposalHash) signers.add(decodeGrant(token)[0].p.iss);
  }
  return signers;
}
