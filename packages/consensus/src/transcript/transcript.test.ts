import { describe, expect, it } from 'vitest';
import {
  README_HASH,
  VENUES,
  type Venue,
  venueAgents,
  venueSheets,
} from '../../test/fixtures/venues.js';
import { runConsensus } from '../decision/run.js';
import { ConsensusError } from '../errors.js';
import { pyDumps } from '../py-json/dumps.js';
import { parsePyJson } from '../py-json/parse.js';
import type { PyValue } from '../py-json/value.js';
import { Transcript } from './transcript.js';

const record = () => runConsensus<Venue>(venueAgents(), VENUES).transcript;

describe('Transcript', () => {
  it('hashes the README snippet to what parley-consensus 0.2.1 prints', () => {
    expect(record().hash()).toBe(README_HASH);
  });

  it('writes the text Python hashes, scores as floats', () => {
    expect(record().canonicalText()).toMatch(
      /^\{"entries": \[\{"option": \{"cost": 900, "venue": "rooftop"\}, "verdicts": \[\{"acceptable": true, "owner": "Ana", "pubkey_hex": null, "reason": "ok", "score": 1\.0, "sig": null\}, \{"acceptable": false, "owner": "Bob", "pubkey_hex": null, "reason": "red-line", "score": 0\.0, "sig": null\}/,
    );
    expect(record().canonicalText()).toMatch(
      /"result": \{"decision": \{"cost": 600, "venue": "garden"\}, "status": "agreed"\}\}$/,
    );
  });

  it('round-trips through its JSON text to the same hash', () => {
    const back = Transcript.fromDict(parsePyJson(record().canonicalText()));
    expect(back.hash()).toBe(README_HASH);
    expect(pyDumps(back.toDict())).toBe(record().canonicalText());
  });

  it('replays an owner sheet: true when every red line holds, and on a deadlock', () => {
    const t = record();
    for (const sheet of venueSheets()) {
      expect(t.verifyNonBetrayal(sheet, { venue: 'garden', cost: 600 })).toBe(true);
      expect(t.verifyNonBetrayal(sheet, null)).toBe(true);
    }
    const bob = venueSheets()[1];
    expect(bob && t.verifyNonBetrayal(bob, { venue: 'rooftop', cost: 900 })).toBe(false);
  });

  it.each([
    ['not an object', []],
    ['an extra key', { entries: [], result: null, note: 'x' }],
    ['a missing key', { entries: [] }],
    ['entries not a list', { entries: {}, result: null }],
    [
      'an extra verdict key',
      '{"entries": [{"option": 1, "verdicts": [{"owner": "A", "acceptable": true, "score": 0.5, "reason": "ok", "sig": null, "pubkey_hex": null, "why": "x"}]}], "result": null}',
    ],
    [
      'an int score',
      '{"entries": [{"option": 1, "verdicts": [{"owner": "A", "acceptable": true, "score": 1, "reason": "ok", "sig": null, "pubkey_hex": null}]}], "result": null}',
    ],
    [
      'an unknown reason',
      '{"entries": [{"option": 1, "verdicts": [{"owner": "A", "acceptable": true, "score": 1.0, "reason": "budget", "sig": null, "pubkey_hex": null}]}], "result": null}',
    ],
    ['an unknown status', '{"entries": [], "result": {"status": "won", "decision": null}}'],
  ])('refuses a record with %s', (_, raw) => {
    const value = typeof raw === 'string' ? parsePyJson(raw) : (raw as PyValue);
    expect(() => Transcript.fromDict(value)).toThrow(ConsensusError);
  });

  it('accepts an unfinalized record', () => {
    expect(Transcript.fromDict({ entries: [], result: null }).result).toBeNull();
  });
});
