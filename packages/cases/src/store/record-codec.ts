import { randomBytes } from 'node:crypto';
import { type PyValue, parsePyJson, pyDumps } from '@parley/consensus';
import type { CaseRecord, PartyPrivate, SharedCase } from '../record.js';
import { open, seal } from './sealing.js';

/** The rows of one case: the shared part in the clear, each private part sealed. */
export interface CaseRows {
  readonly id: string;
  readonly version: number;
  readonly shared: string;
  /** The case's data key, sealed under the master key. */
  readonly dataKey: Buffer;
  readonly privates: readonly { readonly party: string; readonly sealed: Buffer }[];
  readonly linkHashes: readonly string[];
}

/**
 * A case as rows. Each case has its own random data key, sealed under the master key; deleting
 * the case row deletes that key, so a copy of the private rows left anywhere is unreadable
 * (module 09: deletion removes keys).
 */
export function recordToRows(record: CaseRecord, master: Uint8Array, sealedKey?: Buffer): CaseRows {
  const dataKeyRow = sealedKey ?? seal(master, randomBytes(32), `case-key:${record.shared.id}`);
  const dataKey = open(master, dataKeyRow, `case-key:${record.shared.id}`);
  return {
    id: record.shared.id,
    version: record.shared.version,
    shared: pyDumps(record.shared as unknown as PyValue),
    dataKey: dataKeyRow,
    privates: Object.values(record.privates).map((p) => ({
      party: p.party,
      sealed: seal(
        dataKey,
        Buffer.from(pyDumps(p as unknown as PyValue), 'utf8'),
        `private:${record.shared.id}:${p.party}`,
      ),
    })),
    linkHashes: record.shared.links.map((l) => l.hash),
  };
}

/** The case of its rows. */
export function rowsToRecord(rows: Omit<CaseRows, 'linkHashes'>, master: Uint8Array): CaseRecord {
  const dataKey = open(master, rows.dataKey, `case-key:${rows.id}`);
  const privates: Record<string, PartyPrivate> = {};
  for (const row of rows.privates) {
    const text = open(dataKey, row.sealed, `private:${rows.id}:${row.party}`).toString('utf8');
    privates[row.party] = parsePyJson(text) as unknown as PartyPrivate;
  }
  return { shared: parsePyJson(rows.shared) as unknown as SharedCase, privates };
}
