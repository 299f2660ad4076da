import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  ConsensusError,
  isPyObject,
  type PyObject,
  type PyValue,
  partySheet,
  pyDumps,
  readParty,
} from '@parley/consensus';
import { textResult } from '../tool-result.js';
import { pyArgument } from './py-arguments.js';

export const CHECK_PARTY_TOOL = 'parley_check_party';

export const CHECK_PARTY_DESCRIPTION = [
  "Replay one party's red lines against a decision: holds is true when none of that party's",
  'hard constraints is crossed (a deadlock, decision null, crosses none). It never says which red',
  'line failed. Input: party = {"owner", "hard", "utility"} as in the spec; decision = the',
  'option parley_decide chose (or its whole result, or null).',
].join(' ');

export const CHECK_PARTY_INPUT = {
  type: 'object',
  properties: {
    party: { type: 'object', description: 'One party: {owner, hard, utility}.' },
    decision: {
      type: ['object', 'null'],
      description: 'The decided option, a parley_decide result, or null for a deadlock.',
    },
  },
  required: ['party', 'decision'],
  additionalProperties: false,
} as const;

export interface CheckPartyArguments {
  party: Record<string, unknown>;
  decision: Record<string, unknown> | null;
}

/** The decided option: the value itself, or the `decision` of a parley_decide result. */
function decisionOf(value: PyValue): PyObject | null {
  if (value === null) return null;
  if (!isPyObject(value))
    throw new ConsensusError('bad_value', 'a decision is an option object or null');
  const wrapped = value.transcript !== undefined && value.status !== undefined;
  return wrapped ? decisionOf(value.decision ?? null) : value;
}

/** `parley_check_party`: {owner, holds}. */
export function checkPartyTool(
  args: CheckPartyArguments,
  raw: PyObject | undefined,
): CallToolResult {
  const party = readParty(pyArgument(raw, 'party', args.party));
  const decision = decisionOf(pyArgument(raw, 'decision', args.decision));
  const report = {
    owner: party.owner,
    holds: decision === null || partySheet(party).holds(decision),
  };
  return textResult(pyDumps(report), report);
}
