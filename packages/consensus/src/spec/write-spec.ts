import type { PyObject, PyValue } from '../py-json/value.js';
import type { Constraint, DecisionSpec, PartySpec, UtilityTerm } from './types.js';

/** A spec as JSON data (Python's `to_dict` shape): `readSpec(specToDict(s))` is `s` again. */
export function specToDict(spec: DecisionSpec): PyObject {
  return { title: spec.title, options: spec.options, parties: spec.parties.map(partyToDict) };
}

export function partyToDict(party: PartySpec): PyObject {
  return {
    owner: party.owner,
    hard: party.hard.map(constraintToDict),
    utility: party.utility.map(termToDict),
  };
}

function constraintToDict(c: Constraint): PyObject {
  return { attr: c.attr, op: c.op, value: c.value };
}

function termToDict(t: UtilityTerm): PyObject {
  const out: Record<string, PyValue> = { attr: t.attr, weight: t.weight };
  if (t.prefer !== null) out.prefer = t.prefer;
  if (t.direction !== null) Object.assign(out, { direction: t.direction, lo: t.lo, hi: t.hi });
  return out;
}
