/**
 * The example shop's order, done raw for the required COMMIT (commit-required-work.ts): its
 * proposals (a stock update held to its `from`, a charge, an order), and what its COMMIT must do
 * in the transaction besides the commit row: §5.1 read the item and hold its stock to the `from`
 * the person approved, write the item, the order and the ledger entry (the rows the shop floor of
 * service-sqlite-limit.ts writes), and hold the stock to the declared `to` (§5.1, checked on the
 * value written).
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { itemKey, SHOP_ITEMS, STOCK, shopItem } from './service-sqlite-limit.js';

const CARD = 'card ••4242';
const AMOUNT = 1298;

/** What a shop proposal carries that the required COMMIT reads. */
export type ShopOrder = {
  effects: (
    | { op: 'update'; target: string; field: 'stock'; from: number; to: number }
    | { op: string; target: string }
  )[];
  action: {
    order: string;
    lines: { sku: string; qty: number }[];
    delivery: string;
    amount: number;
  };
  cost: { amount: number; currency: string };
};

export type ShopRows = {
  /** The n-th order's proposal parts: item n mod SHOP_ITEMS, at the stock it will have then. */
  order(n: number): ShopOrder;
  /** The apply's result, as the shop's receipt carries it. */
  result(order: ShopOrder): { order: string; total: string; delivery: string };
  /** Inside the COMMIT's transaction: §5.1 hold, the three writes, §5.1 `to`. */
  apply(order: ShopOrder): void;
};

/** The shop's data table in `db`, stocked as the floor's, and its raw order. */
export function shopRows(db: Database.Database): ShopRows {
  db.exec('CREATE TABLE data (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const put = db.prepare('INSERT INTO data (key, value) VALUES (?, ?)');
  const get = db.prepare('SELECT value FROM data WHERE key = ?').pluck();
  const update = db.prepare('UPDATE data SET value = ? WHERE key = ?');
  const stocks: number[] = [];
  for (let i = 0; i < SHOP_ITEMS; i++) {
    put.run(itemKey(i), JSON.stringify(shopItem(i, STOCK)));
    stocks.push(STOCK);
  }
  return {
    order(n) {
      const i = n % SHOP_ITEMS;
      const from = stocks[i] as number;
      stocks[i] = from - 1;
      const order = `o_${randomBytes(6).toString('base64url')}`;
      return {
        effects: [
          { op: 'update', target: itemKey(i), field: 'stock', from, to: from - 1 },
          { op: 'charge', target: CARD },
          { op: 'create', target: `order/${order}` },
        ],
        action: {
          order,
          lines: [{ sku: `bench-${i}`, qty: 1 }],
          delivery: 'standard',
          amount: AMOUNT,
        },
        cost: { amount: AMOUNT, currency: 'USD' },
      };
    },
    result(order) {
      return { order: order.action.order, total: '$12.98', delivery: order.action.delivery };
    },
    apply(order) {
      const held = order.effects[0] as { target: string; from: number; to: number };
      const item = JSON.parse(get.get(held.target) as string) as { stock: number };
      if (item.stock !== held.from) throw new Error('conflict: the stock moved (§5.1)');
      const written = { ...item, stock: item.stock - 1 };
      update.run(JSON.stringify(written), held.target);
      const { action } = order;
      put.run(`order/${action.order}`, JSON.stringify({ ...action, status: 'placed' }));
      put.run(
        `ledger/${action.order}`,
        JSON.stringify({ card: CARD, amount: action.amount, currency: 'USD' }),
      );
      if (written.stock !== held.to) throw new Error('the apply wrote an undeclared value (§5.1)');
    },
  };
}
