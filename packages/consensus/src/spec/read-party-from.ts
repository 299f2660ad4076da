import { SpecError } from '../errors.js';
import { parsePyJson } from '../py-json/parse.js';
import { getOwn, isPyObject, type PyValue } from '../py-json/value.js';
import { readParty } from './read-spec.js';
import type { PartySpec } from './types.js';

/**
 * One owner's party, from either file an owner may hold: a whole spec (`{title, options,
 * parties}`, the party named `owner`) or a party alone (`{owner, hard, utility}`; `owner`, when
 * given, must match). Read with Python's number typing; only that party is validated.
 */
export function readPartyFrom(input: string | PyValue, owner?: string): PartySpec {
  const raw = typeof input === 'string' ? parsePyJson(input) : input;
  if (!isPyObject(raw))
    throw new SpecError('bad_spec', '', 'a spec or a party must be a JSON object');
  const parties = getOwn(raw, 'parties');
  if (parties === undefined) {
    const party = readParty(raw);
    if (owner !== undefined && party.owner !== owner) {
      throw new SpecError(
        'bad_party',
        'party.owner',
        `is ${JSON.stringify(party.owner)}, not ${JSON.stringify(owner)}`,
      );
    }
    return party;
  }
  if (!Array.isArray(parties)) throw new SpecError('bad_spec', 'parties', 'must be a list');
  const owners = parties.map((p) => (isPyObject(p) ? getOwn(p, 'owner') : undefined));
  if (owner === undefined) {
    if (parties.length === 1) return readParty(parties[0] as PyValue, 'parties[0]');
    throw new SpecError(
      'bad_spec',
      'parties',
      `name one party of ${owners.filter((o) => typeof o === 'string').join(', ')}`,
    );
  }
  const i = owners.indexOf(owner);
  if (i < 0) {
    throw new SpecError('bad_spec', 'parties', `no party is owned by ${JSON.stringify(owner)}`);
  }
  return readParty(parties[i] as PyValue, `parties[${i}]`);
}
