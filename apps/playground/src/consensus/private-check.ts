import {
  type PartySpec,
  parsePyJson,
  partySheet,
  partyToDict,
  pyDumps,
  ratificationView,
  readParty,
  readReceipt,
} from '@parley/consensus';
import type { Run } from './receipt-check.js';

/** What one owner learns about the decision from their own sheet, in their browser only. */
export type PrivateVerdict =
  | { owner: string; deadlock: true }
  | {
      owner: string;
      deadlock: false;
      holds: boolean;
      /** The owner's own red lines the decision crosses, by the owner's own names for them. */
      crossed: readonly string[];
      score: number | null;
      rank: number | null;
      acceptable: number;
      options: number;
    };

/** A party's sheet as a file would hold it (Python's json.dumps, indented). */
export function sheetText(party: PartySpec): string {
  return pyDumps(partyToDict(party), { indent: 2, sortKeys: false });
}

/**
 * Replays one party's sheet against the decision, locally: every red line in code, the score,
 * where the decision ranks among the options this sheet allows. Nothing is sent anywhere.
 */
export async function checkPrivately(text: string, run: Run): Promise<PrivateVerdict> {
  const party = readParty(parsePyJson(text));
  if (run.result.decision === null) return { owner: party.owner, deadlock: true };
  const view = await ratificationView(readReceipt(run.receiptText), partySheet(party));
  return {
    owner: party.owner,
    deadlock: false,
    holds: view.holds,
    crossed: view.crossed,
    score: view.score,
    rank: view.rank,
    acceptable: view.acceptable,
    options: view.options,
  };
}
