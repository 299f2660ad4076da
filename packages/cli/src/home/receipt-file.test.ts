import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Receipt } from '@parley/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReceipt, receiptFilePath, recordReceipt } from './receipt-file.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'parley-receipts-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const receipt = (id: string, undo: Receipt['undo'], undoes?: string): Receipt => ({
  id,
  proposal: `p_${id}`,
  capability: 'shop.order',
  summary: 'Order',
  at: 1000,
  effects: [{ op: 'charge', target: 'card', detail: '5.00 USD' }],
  cost: { amount: 500, currency: 'USD' },
  undo,
  ...(undoes === undefined ? {} : { undoes }),
});

describe('§4.5 the receipts parley undo compares with', () => {
  it('keeps undoable receipts (0600) until their window closes; never irreversible or undo ones', () => {
    recordReceipt(home, 'shop.example', receipt('r_a', { until: 2000 }), 1000);
    recordReceipt(home, 'shop.example', receipt('r_never', null), 1000);
    recordReceipt(home, 'shop.example', receipt('r_undo', null, 'r_a'), 1000);
    expect(readReceipt(home, 'shop.example', 'r_a')?.effects).toHaveLength(1);
    expect(readReceipt(home, 'shop.example', 'r_never')).toBeUndefined();
    expect(readReceipt(home, 'shop.example', 'r_undo')).toBeUndefined();
    expect(readReceipt(home, 'other.example', 'r_a')).toBeUndefined();
    expect(statSync(receiptFilePath(home, 'shop.example')).mode & 0o777).toBe(0o600);
    recordReceipt(home, 'shop.example', receipt('r_b', { until: 9000 }), 2001);
    expect(readReceipt(home, 'shop.example', 'r_a')).toBeUndefined();
    expect(readReceipt(home, 'shop.example', 'r_b')).toBeDefined();
  });
});
