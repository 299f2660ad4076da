import { ConsensusError, type PartySpec, readPartyFrom } from '@parley/consensus';
import { CliError } from '../cli-error.js';

/** The party NAME of a spec file, or the party in a party file; CliError naming the file. */
export function readParty(text: string, path: string, owner: string | undefined): PartySpec {
  try {
    return readPartyFrom(text, owner);
  } catch (error) {
    if (!(error instanceof ConsensusError)) throw error;
    const hint =
      owner === undefined && /name one party/.test(error.message) ? ' (pass --party NAME)' : '';
    throw new CliError(`${path}: ${error.message}${hint}`);
  }
}
