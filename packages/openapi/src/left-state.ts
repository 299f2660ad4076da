import { type JsonValue, ParleyError, type Receipt } from '@parley/protocol';
import type { DataAccess } from '@parley/service';
import type { Backend } from './read-capability.js';
import {
  ifMatchOf,
  type ResourceVersion,
  readVersion,
  sameVersion,
  versionOf,
} from './resource-version.js';
import { pathOf } from './upstream.js';

/** Where the service's data keeps the state a COMMIT left its undo's resource in. */
const leftKey = (proposalId: string): string => `openapi/left/${proposalId}`;

/**
 * After a COMMIT: reads the resource its undo would act on and keeps that version for the UNDO
 * (§4.5). Never fails the commit, which has happened: a read or a write that fails keeps
 * nothing, and the undo is then refused rather than sent blind.
 */
export async function keepLeft(
  backend: Backend,
  data: DataAccess,
  proposalId: string,
  url: string,
): Promise<void> {
  try {
    const read = await backend.upstream.send({ method: 'GET', url });
    const version = versionOf(url, read);
    if (!version.absent && (read.status < 200 || read.status >= 300)) return;
    await data.put(leftKey(proposalId), version as unknown as JsonValue);
  } catch {
    // Nothing kept: holdLeft refuses the undo.
  }
}

/**
 * §4.5, §7: before an UNDO sends its inverse request, the resource must still be as the COMMIT
 * left it; a later change by anyone else is a `conflict`, as a stale COMMIT is (§5.1), and
 * nothing is sent. Returns the If-Match that holds the upstream to that check (a strong ETag).
 */
export async function holdLeft(
  backend: Backend,
  data: DataAccess,
  receipt: Receipt,
  url: string,
  progress: (message: string, fraction?: number) => void,
): Promise<Record<string, string>> {
  const left = (await data.get(leftKey(receipt.proposal))) as ResourceVersion | undefined;
  if (left === undefined || left.url !== url) {
    throw new ParleyError(
      'conflict',
      `cannot undo ${receipt.id}: what its commit left at ${pathOf(url)} was never read (the commit was settled by hand, or the read after it failed), so a later change could not be told apart; nothing was sent`,
      { fix: [{ say: `look at ${pathOf(url)} and undo it at the upstream by hand` }] },
    );
  }
  progress(`checking ${pathOf(url)} is as the commit left it`, 0.25);
  const now = await readVersion(backend, url);
  if (!sameVersion(left, now)) {
    throw new ParleyError(
      'conflict',
      `${pathOf(url)} changed at the upstream since ${receipt.id} was committed; undoing it now would overwrite that change, so nothing was sent`,
    );
  }
  return ifMatchOf(now);
}
