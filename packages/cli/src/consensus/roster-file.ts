import { isPyObject, type PyValue, publicKeyHex } from '@parley/consensus';
import { publicKeyString } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { readPyJsonFile } from '../text-file.js';

/** A roster as read: each owner's key (hex) and the owners whose verdicts must be session-bound. */
export interface Roster {
  readonly keys: Record<string, string>;
  readonly requireSession: readonly string[];
}

/** One owner's entry as a roster file holds it. */
export interface RosterEntry {
  readonly key: string;
  readonly require_session: boolean;
}

const ENTRY_KEYS = new Set(['key', 'require_session']);

/**
 * A roster file: `{"Ana": KEY, "Bob": {"key": KEY, "require_session": true}, ...}` with each key
 * as 64 hex characters or "ed25519:…", or any JSON object with such a `roster` (a receipt). The
 * owners you trust, the key of each, and whose verdicts must be `verdict/0.2` in a session (a
 * `verdict/0.1` from them could be an old one replayed by a stand-in).
 */
export async function readRosterFile(path: string): Promise<Roster> {
  const value = await readPyJsonFile(path);
  const roster = isPyObject(value) && isPyObject(value.roster) ? value.roster : value;
  if (!isPyObject(roster) || Object.keys(roster).length === 0) {
    throw new CliError(`${path} must map each owner to a public key, like {"Ana": "ed25519:…"}`);
  }
  const keys: Record<string, string> = {};
  const requireSession: string[] = [];
  for (const [owner, entry] of Object.entries(roster)) {
    const read = readEntry(entry, `${path}: ${JSON.stringify(owner)}`);
    // defineProperty keeps an owner named "__proto__" an ordinary key.
    Object.defineProperty(keys, owner, { value: read.key, enumerable: true });
    if (read.require_session) requireSession.push(owner);
  }
  return { keys, requireSession };
}

/** A roster file's value for these entries, keys written as "ed25519:…". */
export function rosterFileValue(
  entries: ReadonlyMap<string, RosterEntry>,
): Record<string, RosterEntry> {
  const out: Record<string, RosterEntry> = {};
  for (const [owner, entry] of entries) {
    const key = publicKeyString(Buffer.from(publicKeyHex(entry.key), 'hex'));
    const value = { key, require_session: entry.require_session };
    Object.defineProperty(out, owner, { value, enumerable: true });
  }
  return out;
}

function readEntry(entry: PyValue, where: string): RosterEntry {
  if (typeof entry === 'string') return { key: keyHex(entry, where), require_session: false };
  if (!isPyObject(entry)) {
    throw new CliError(`${where} must be a key, or {"key": …, "require_session": true}`);
  }
  const unknown = Object.keys(entry).find((k) => !ENTRY_KEYS.has(k));
  if (unknown !== undefined) {
    throw new CliError(
      `${where} has ${JSON.stringify(unknown)}; an entry holds only key and require_session`,
    );
  }
  // Only the two keys above are own properties here: anything else was refused.
  const key = entry.key;
  const required = entry.require_session ?? false;
  if (typeof key !== 'string') throw new CliError(`${where} has no "key"`);
  if (typeof required !== 'boolean') {
    throw new CliError(`${where}: "require_session" must be true or false`);
  }
  return { key: keyHex(key, where), require_session: required };
}

function keyHex(key: string, where: string): string {
  try {
    return publicKeyHex(key);
  } catch {
    throw new CliError(`${where}: the key is not 64 hex characters or "ed25519:…"`);
  }
}
