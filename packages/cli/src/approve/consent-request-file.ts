import { readFileSync } from 'node:fs';
import { ProposalMemory } from '@parley/client';
import { isPlainObject, type Proposal, parsePublicKey } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { type PendingConsent, readPendingConsent } from '../home/consent-file.js';
import { readStdin } from '../standard-streams.js';
import { writeTextFile } from '../text-file.js';

/** The value of a consent request file's `format` member: the one format this CLI reads. */
export const CONSENT_REQUEST_FORMAT = 'parley-consent-request/1';

/**
 * A consent request carried to an approver on another device (`parley approve PROPOSAL
 * --export`): what the service asked (as `parley commit` saved it), the proposal the agent
 * received, and the agent key the consent grant must name as its holder. Nothing in it is
 * trusted by the approver: `parley approve --request` recomputes the proposal's hash and checks
 * every field against it, as §6.6 asks of any consent request.
 */
export type ConsentRequestFile = PendingConsent & {
  format: typeof CONSENT_REQUEST_FORMAT;
  agent: string;
  proposal: Proposal;
};

/** The request file for a saved consent request, its proposal and the local agent key. */
export function consentRequestFile(
  pending: PendingConsent,
  proposal: Proposal,
  agent: string,
): ConsentRequestFile {
  return { format: CONSENT_REQUEST_FORMAT, ...pending, agent, proposal };
}

/** Writes a request file to `path`, or to stdout for `-`. */
export function writeConsentRequest(
  path: string,
  request: ConsentRequestFile,
  out: (text: string) => void,
): void {
  const text = `${JSON.stringify(request, null, 2)}\n`;
  if (path === '-') out(text);
  else writeTextFile(path, text, { mode: 0o600 });
}

/** Reads a request file (`-` for stdin); CliError naming what is wrong with it. */
export async function readConsentRequest(path: string): Promise<ConsentRequestFile> {
  const shown = path === '-' ? 'stdin' : path;
  let text: string;
  try {
    text = path === '-' ? await readStdin() : readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read the consent request ${shown}: ${(error as Error).message}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CliError(
      `${shown} is not JSON; it should be a file \`parley approve --export\` wrote`,
    );
  }
  if (!isPlainObject(body) || body.format !== CONSENT_REQUEST_FORMAT) {
    throw new CliError(
      `${shown} is not a consent request: its "format" must be "${CONSENT_REQUEST_FORMAT}"`,
    );
  }
  // The same checks as a request the agent saved itself, then the two members an export adds.
  readPendingConsent(body, shown, 'ask for the file `parley approve --export` wrote');
  if (typeof body.agent !== 'string' || !isPublicKey(body.agent)) {
    throw new CliError(`${shown} must name the agent's key ("agent": "ed25519:…")`);
  }
  if (!isPlainObject(body.proposal)) {
    throw new CliError(`${shown} must carry the proposal the agent received ("proposal": {…})`);
  }
  return body as unknown as ConsentRequestFile;
}

/** A ProposalMemory holding only the proposal a request file carries (§6.6 checks). */
export function requestMemory(request: ConsentRequestFile): ProposalMemory {
  const memory = new ProposalMemory();
  memory.remember(request.service, [request.proposal]);
  return memory;
}

function isPublicKey(text: string): boolean {
  try {
    parsePublicKey(text);
    return true;
  } catch {
    return false;
  }
}
