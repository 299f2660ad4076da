import { describe, expect, it } from 'vitest';
import { VENUES, type Venue, venueAgents } from '../../test/fixtures/venues.js';
import { parsePyJson } from '../py-json/parse.js';
import { PyFloat, type PyObject, type PyValue } from '../py-json/value.js';
import { Transcript } from '../transcript/transcript.js';
import { runConsensus } from './run.js';
import { verifyOutcome } from './verify-outcome.js';

const honest = () => runConsensus<Venue>(venueAgents(), VENUES).transcript;

/** The honest record with one change made to a fresh copy of its JSON form. */
function edited(change: (dict: { entries: PyObject[]; result: PyObject | null }) => void) {
  const dict = parsePyJson(honest().canonicalText()) as unknown as {
    entries: PyObject[];
    result: PyObject | null;
  };
  change(dict);
  return Transcript.fromDict(dict as unknown as PyValue);
}

describe('verifyOutcome', () => {
  it('passes the honest record, with and without the roster', () => {
    expect(verifyOutcome(honest())).toEqual({
      ok: true,
      status: 'agreed',
      decision: { venue: 'garden', cost: 600 },
    });
    expect(verifyOutcome(honest(), { expectedOwners: ['Cara', 'Ana', 'Bob'] }).ok).toBe(true);
  });

  it('catches a feasible-but-not-max-min decision and an infeasible one', () => {
    const diner = edited((d) => {
      d.result = { status: 'agreed', decision: { venue: 'diner', cost: 300 } };
    });
    expect(verifyOutcome(diner)).toMatchObject({ ok: false, code: 'not_max_min' });
    const rooftop = edited((d) => {
      d.result = { status: 'agreed', decision: { venue: 'rooftop', cost: 900 } };
    });
    expect(verifyOutcome(rooftop)).toMatchObject({ ok: false, code: 'not_max_min' });
  });

  it('catches a false deadlock and a false agreement', () => {
    const deadlock = edited((d) => {
      d.result = { status: 'deadlock', decision: null };
    });
    expect(verifyOutcome(deadlock)).toMatchObject({ ok: false, code: 'not_max_min' });
    const none = new Transcript([], { status: 'agreed', decision: { venue: 'garden' } });
    expect(verifyOutcome(none)).toMatchObject({ ok: false, code: 'not_deadlock' });
    expect(verifyOutcome(new Transcript([], { status: 'deadlock', decision: null })).ok).toBe(true);
    expect(verifyOutcome(new Transcript([], null))).toMatchObject({ code: 'not_finalized' });
  });

  it('needs exactly one verdict per owner in every entry', () => {
    const dropped = edited((d) => {
      const verdicts = d.entries[0]?.verdicts as PyValue[];
      verdicts.splice(1, 1);
    });
    expect(verifyOutcome(dropped)).toMatchObject({ ok: false, code: 'owner_set' });
    const doubled = edited((d) => {
      const verdicts = d.entries[0]?.verdicts as PyValue[];
      verdicts[1] = verdicts[0] as PyValue;
    });
    expect(verifyOutcome(doubled)).toMatchObject({ ok: false, code: 'owner_set' });
  });

  it('compares the decision with Python equality (600 == 600.0)', () => {
    const float = edited((d) => {
      d.result = { status: 'agreed', decision: { venue: 'garden', cost: new PyFloat(600) } };
    });
    expect(verifyOutcome(float).ok).toBe(true);
  });
});
