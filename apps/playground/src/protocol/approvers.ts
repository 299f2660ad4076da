import {
  decodeB64url,
  encodeB64url,
  generateKeyPair,
  type KeyPair,
  keyPairFromSeed,
  MAX_APPROVERS,
  publicKeyString,
} from '@parley/protocol';

/**
 * Where the page keeps the people who approve commits together (docs/extensions.md §E4): their
 * names and keys, in this browser only, as it keeps the principal's. They stay when the principal
 * makes new keys: they are other people, not this principal.
 */
const APPROVERS_KEY = 'parley-playground/approvers/v1';
/** A name as a person types it: short, on one line. */
const MAX_NAME_LENGTH = 40;

/** A person whose key can approve a commit (§E4); they need not be a trusted principal. */
export type Approver = { name: string; key: KeyPair; publicKey: string };

type StoredApprover = { name: string; seed: string };

/** The approvers kept in this browser, in the order they were added; none if none or damaged. */
export async function loadApprovers(): Promise<Approver[]> {
  let stored: unknown;
  try {
    stored = JSON.parse(window.localStorage.getItem(APPROVERS_KEY) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(stored)) return [];
  const approvers: Approver[] = [];
  for (const entry of stored as Partial<StoredApprover>[]) {
    if (typeof entry?.name !== 'string' || typeof entry.seed !== 'string') continue;
    try {
      const key = await keyPairFromSeed(decodeB64url(entry.seed));
      approvers.push({ name: entry.name, key, publicKey: publicKeyString(key) });
    } catch {
      // A seed that does not decode signs nothing: dropped.
    }
  }
  return approvers.slice(0, MAX_APPROVERS);
}

function save(approvers: readonly Approver[]): void {
  const stored: StoredApprover[] = approvers.map((a) => ({
    name: a.name,
    seed: encodeB64url(a.key.seed),
  }));
  window.localStorage.setItem(APPROVERS_KEY, JSON.stringify(stored));
}

/** Why `name` cannot be added next to `approvers`, in one sentence; undefined when it can. */
export function approverNameProblem(
  name: string,
  approvers: readonly Approver[],
): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'Type the person’s name.';
  if (trimmed.length > MAX_NAME_LENGTH) return `A name is at most ${MAX_NAME_LENGTH} characters.`;
  if (approvers.some((a) => a.name.toLowerCase() === trimmed.toLowerCase())) {
    return `${trimmed} is already listed; give each person their own name.`;
  }
  if (approvers.length >= MAX_APPROVERS) {
    return `At most ${MAX_APPROVERS} people can be listed (§E4).`;
  }
  return undefined;
}

/** Makes `name` a key in this browser and keeps it; the new list. */
export async function addApprover(
  name: string,
  approvers: readonly Approver[],
): Promise<Approver[]> {
  const problem = approverNameProblem(name, approvers);
  if (problem !== undefined) throw new Error(problem);
  const key = await generateKeyPair();
  const next = [...approvers, { name: name.trim(), key, publicKey: publicKeyString(key) }];
  save(next);
  return next;
}

/** Forgets `publicKey`'s person and key; the new list. */
export function removeApprover(publicKey: string, approvers: readonly Approver[]): Approver[] {
  const next = approvers.filter((a) => a.publicKey !== publicKey);
  save(next);
  return next;
}
