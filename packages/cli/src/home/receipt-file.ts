import { join } from 'node:path';
import { isPlainObject, type Receipt } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { fileNameFor } from './file-name.js';
import { readJsonFile, writeJsonFile } from './json-file.js';

/**
 * §4.5: the receipts of commits made from this home while they can be undone, in
 * PARLEY_HOME/receipts/SERVICE.json, so `parley undo` can say what the undo left as it was.
 */
export function receiptFilePath(home: string, service: string): string {
  return join(home, 'receipts', `${fileNameFor(service)}.json`);
}

/** The undoable receipts received from `service`, by id. */
function readReceipts(home: string, service: string): Map<string, Receipt> {
  const path = receiptFilePath(home, service);
  const body = readJsonFile(path);
  const known = new Map<string, Receipt>();
  if (body === undefined) return known;
  if (!isPlainObject(body) || body.service !== service || !isPlainObject(body.receipts)) {
    throw new CliError(`${path} is not a receipt record of ${service}; fix or remove it`);
  }
  for (const [id, receipt] of Object.entries(body.receipts)) known.set(id, receipt as Receipt);
  return known;
}

/** The receipt `id` from `service`, if this home recorded it and its undo window is open. */
export function readReceipt(home: string, service: string, id: string): Receipt | undefined {
  return readReceipts(home, service).get(id);
}

/**
 * Records a receipt that can be undone (not an undo's, not an irreversible one), dropping those
 * whose undo window has closed.
 */
export function recordReceipt(home: string, service: string, receipt: Receipt, now: number): void {
  if (receipt.undo === null || receipt.undoes !== undefined) return;
  const known = readReceipts(home, service);
  for (const [id, kept] of known) {
    if (kept.undo === null || kept.undo.until < now) known.delete(id);
  }
  known.set(receipt.id, receipt);
  writeJsonFile(receiptFilePath(home, service), {
    service,
    receipts: Object.fromEntries(known),
  });
}
