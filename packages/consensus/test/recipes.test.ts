import { describe, expect, it } from 'vitest';
import {
  decide,
  makeReceipt,
  parsePyJson,
  partySheet,
  pyDumps,
  readReceipt,
  readSpec,
  specToDict,
  standingOf,
  Transcript,
  verifyOutcome,
  verifyReceipt,
  writeReceipt,
} from '../src/index.js';
import { provenanceSums, recipes, sha256Hex } from './fixtures/recipes.js';

// Decisions checked by hand against each recipe's numbers (several recipes state theirs in
// "outcome"). Hashes are regression values from this implementation: Python is not reachable
// here; the README snippet (test/readme-snippet.test.ts) is the cross-implementation check.
const EXPECTED: Readonly<Record<string, readonly [string, string]>> = {
  'recipe_committee.json': ['fund-biotech', 'bc180fabe85145de'],
  'recipe_contract_terms.json': ['balanced', 'feb98e8914bf6dc3'],
  'recipe_dao.json': ['balanced', '765793337d203563'],
  'recipe_dao_treasury.json': ['partial', '5fd23265bf76cd1a'],
  'recipe_early_lease_exit.json': ['balanced-replacement', '6f7123b1d1b77c66'],
  'recipe_estate.json': ['equal', '1431fb1a2f2f6f7c'],
  'recipe_estate_valuation.json': ['market', 'aea168f23c2dbb67'],
  'recipe_insurance.json': ['even', '97aab2ba1d04ad23'],
  'recipe_kyc.json': ['approve-basic', 'd9a683e895122c81'],
  'recipe_legal.json': ['settle-mid', '369797155db41fd6'],
  'recipe_ma_termsheet.json': ['market', '80fbc07b34e45c6d'],
  'recipe_otc_deal.json': ['fair', 'e564ca65a85b4978'],
  'recipe_p2p_dispute.json': ['split', '0a85a717b2e6fb2f'],
  'recipe_partnership_buyout.json': ['fair-buyout', 'a019b233f1115290'],
  'recipe_procurement.json': ['vendor-a', 'ae7459b88ccfa696'],
};

describe('every recipe', () => {
  it('is the file PROVENANCE.txt records', () => {
    const sums = provenanceSums();
    expect([...sums.keys()].sort()).toEqual(recipes().map((r) => r.name));
    for (const r of recipes()) expect(sha256Hex(r.text)).toBe(sums.get(r.name));
    expect(Object.keys(EXPECTED).sort()).toEqual(recipes().map((r) => r.name));
  });

  describe.each(recipes())('$name', ({ name, text }) => {
    const spec = readSpec(text);
    const result = decide(spec);
    const owners = spec.parties.map((p) => p.owner);
    const [id, hashPrefix] = EXPECTED[name] ?? ['', ''];

    it('decides', () => {
      expect(result.status).toBe('agreed');
      expect(result.decision?.id).toBe(id);
      expect(result.transcript.hash().slice(0, 16)).toBe(hashPrefix);
    });

    it('verifies: max-min over the expected owners, and no party betrayed', () => {
      expect(verifyOutcome(result.transcript, { expectedOwners: owners }).ok).toBe(true);
      for (const party of spec.parties) {
        expect(result.transcript.verifyNonBetrayal(partySheet(party), result.decision)).toBe(true);
      }
    });

    it('blocks exactly the options some red line rejects', () => {
      const sheets = spec.parties.map(partySheet);
      result.transcript.entries.forEach((entry, i) => {
        const option = spec.options[i];
        if (option === undefined) throw new Error('entry without option');
        const blocked = sheets.some((s) => !s.holds(option));
        expect(standingOf(entry.verdicts) === null).toBe(blocked);
      });
    });

    it('round-trips: the spec, the transcript and a receipt', async () => {
      const again = decide(readSpec(pyDumps(specToDict(spec))));
      expect(again.transcript.hash()).toBe(result.transcript.hash());
      const back = Transcript.fromDict(parsePyJson(result.transcript.canonicalText()));
      expect(back.hash()).toBe(result.transcript.hash());
      const receipt = readReceipt(writeReceipt(makeReceipt(result, { title: spec.title })));
      const report = await verifyReceipt(receipt, { expectedOwners: owners });
      expect(report.ok).toBe(true);
    });
  });
});
