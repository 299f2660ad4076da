import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Consent } from '@parley/protocol';
import { isPlainObject } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { fileNameFor } from './file-name.js';
import { readJsonFile, writeJsonFile } from './json-file.js';

/** A consent request as the agent saved it: what the service asked and where it asked it. */
export type PendingConsent = {
  /** The URL the agent committed to. */
  url: string;
  /** The service id the agent's connection learnt from HELLO (not from the consent itself). */
  service: string;
  consent: Consent;
  /** The ERROR message that came with it: the service's words, shown as such. */
  message?: string;
};

export function consentFilePath(home: string, proposal: string): string {
  return join(home, 'consents', `${fileNameFor(proposal)}.json`);
}

/** Saves a consent request for `parley approve`. */
export function saveConsent(home: string, pending: PendingConsent): string {
  const path = consentFilePath(home, pending.consent.proposal);
  writeJsonFile(path, pending);
  return path;
}

const CONSENT_STRINGS = ['proposal', 'hash', 'service', 'capability', 'principal', 'summary'];

/** The saved consent request for `proposal`; CliError when there is none or it is malformed. */
export function loadConsent(home: string, proposal: string): PendingConsent {
  const path = consentFilePath(home, proposal);
  const body = readJsonFile(path);
  if (body === undefined) {
    throw new CliError(
      `no consent request for proposal ${proposal} in ${join(home, 'consents')}; the agent saves one when \`parley commit\` is refused with consent_required`,
    );
  }
  return readPendingConsent(body, path);
}

/**
 * `body` as a consent request (read from `shown`); CliError, ending in `advice`, when it is not
 * one.
 */
export function readPendingConsent(
  body: unknown,
  shown: string,
  advice = 'remove it',
): PendingConsent {
  const consent = isPlainObject(body) ? body.consent : undefined;
  const wellFormed =
    isPlainObject(body) &&
    typeof body.url === 'string' &&
    typeof body.service === 'string' &&
    (body.message === undefined || typeof body.message === 'string') &&
    isPlainObject(consent) &&
    CONSENT_STRINGS.every((field) => typeof consent[field] === 'string') &&
    Number.isSafeInteger(consent.expires) &&
    (consent.approvals === undefined || isApprovals(consent.approvals));
  if (!wellFormed) throw new CliError(`${shown} is not a consent request; ${advice}`);
  return body as unknown as PendingConsent;
}

/** docs/extensions.md §E4: the `approvals` member of a consent request, well formed. */
function isApprovals(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    Array.isArray(value.of) &&
    value.of.every((key) => typeof key === 'string') &&
    Number.isSafeInteger(value.need) &&
    Number.isSafeInteger(value.have)
  );
}

/** The saved consent request for the proposal whose hash is `hash`, if any can be read. */
export function pendingConsentFor(home: string, hash: string): PendingConsent | undefined {
  const folder = join(home, 'consents');
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  for (const name of names) {
    try {
      const pending = readPendingConsent(readJsonFile(join(folder, name)), name);
      if (pending.consent.hash === hash) return pending;
    } catch {
      // A file that is not a consent request is `parley approve`'s to report, not this lookup's.
    }
  }
  return undefined;
}

/** Forgets a consent request once it is approved. */
export function removeConsent(home: string, proposal: string): void {
  rmSync(consentFilePath(home, proposal), { force: true });
}
