import { rmSync } from 'node:fs';
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
  const consent = isPlainObject(body) ? body.consent : undefined;
  const wellFormed =
    isPlainObject(body) &&
    typeof body.url === 'string' &&
    typeof body.service === 'string' &&
    isPlainObject(consent) &&
    CONSENT_STRINGS.every((field) => typeof consent[field] === 'string') &&
    Number.isSafeInteger(consent.expires);
  if (!wellFormed) throw new CliError(`${path} is not a consent request; remove it`);
  return body as unknown as PendingConsent;
}

/** Forgets a consent request once it is approved. */
export function removeConsent(home: string, proposal: string): void {
  rmSync(consentFilePath(home, proposal), { force: true });
}
