import { join } from 'node:path';
import { ProposalMemory } from '@parley/client';
import { hashProposal, isPlainObject, type Proposal } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { fileNameFor } from './file-name.js';
import { readJsonFile, writeJsonFile } from './json-file.js';

/** Proposals expired this long are dropped when new ones are recorded (s). */
const EXPIRED_KEPT_SECONDS = 3_600;

/** §6.6: every proposal the agent received from a service, in PARLEY_HOME/proposals/. */
export function proposalFilePath(home: string, service: string): string {
  return join(home, 'proposals', `${fileNameFor(service)}.json`);
}

/** The proposals received from `service`, by id. */
export function readProposals(home: string, service: string): Map<string, Proposal> {
  const path = proposalFilePath(home, service);
  const body = readJsonFile(path);
  const known = new Map<string, Proposal>();
  if (body === undefined) return known;
  if (!isPlainObject(body) || body.service !== service || !isPlainObject(body.proposals)) {
    throw new CliError(`${path} is not a proposal record of ${service}; fix or remove it`);
  }
  for (const [id, proposal] of Object.entries(body.proposals)) {
    known.set(id, proposal as Proposal);
  }
  return known;
}

/** Records proposals received from `service`, dropping ones expired an hour ago. */
export function recordProposals(
  home: string,
  service: string,
  proposals: readonly Proposal[],
  now: number,
): void {
  const known = readProposals(home, service);
  for (const [id, proposal] of known) {
    if (proposal.expires < now - EXPIRED_KEPT_SECONDS) known.delete(id);
  }
  for (const proposal of proposals) known.set(proposal.id, proposal);
  writeJsonFile(proposalFilePath(home, service), {
    service,
    proposals: Object.fromEntries(known),
  });
}

/** A client ProposalMemory holding what the agent received from `service` (§6.6 checks). */
export function proposalMemory(home: string, service: string): ProposalMemory {
  const memory = new ProposalMemory();
  memory.remember(service, [...readProposals(home, service).values()]);
  return memory;
}

/** §5.1: whether a proposal's hash covers its contents as received. */
export function hashCovers(proposal: Proposal): boolean {
  try {
    return hashProposal(proposal) === proposal.hash;
  } catch {
    return false;
  }
}
