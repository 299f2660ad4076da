import { ConsensusError } from '../errors.js';
import { parsePyJson } from '../py-json/parse.js';
import { getOwn, isPyObject, type PyObject } from '../py-json/value.js';
import { partySheet } from '../spec/compile.js';
import { readParty } from '../spec/read-spec.js';
import { type CommandOutput, printed, refused } from './output.js';

/**
 * `parley check-party PARTY.json DECISION.json`: replays one party's red lines against a decision,
 * locally. DECISION.json is the option object, `null` for a deadlock, or the output of
 * `parley decide --json` (or a receipt), whose `decision` is used. It never says which red line.
 */
export function checkPartyCommand(partyText: string, decisionText: string): CommandOutput {
  try {
    const party = readParty(parsePyJson(partyText));
    const decision = decisionOf(parsePyJson(decisionText));
    const who = party.owner;
    if (decision === null) {
      return printed(`${who}: no decision (a deadlock), so no red line is crossed.\n`);
    }
    if (partySheet(party).holds(decision)) {
      return printed(`${who}: every red line holds on this decision.\n`);
    }
    return printed(`${who}: this decision crosses at least one of your red lines.\n`, 1);
  } catch (error) {
    return refused('check-party', error);
  }
}

function decisionOf(value: ReturnType<typeof parsePyJson>): PyObject | null {
  if (value === null) return null;
  if (!isPyObject(value)) {
    throw new ConsensusError('bad_value', 'a decision is an option object or null');
  }
  const wrapped =
    getOwn(value, 'transcript') !== undefined && getOwn(value, 'status') !== undefined;
  return wrapped ? decisionOf(getOwn(value, 'decision') ?? null) : value;
}
