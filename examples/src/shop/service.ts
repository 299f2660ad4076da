import {
  encodeB64url,
  type Fix,
  type JsonObject,
  type JsonValue,
  type Money,
  ParleyError,
  randomBytes,
  renderMoney,
} from '@parley/protocol';
import {
  type DataAccess,
  didYouMean,
  type ProposalDraft,
  quoteInput,
  type Service,
} from '@parley/service';
import { defineExample, type ExampleOptions } from '../options.js';
import { type Item, itemKey, listItems, seedCatalog } from './catalog.js';

export const SHOP_ID = 'shop.example';
/** Orders can be cancelled (and refunded) for an hour. */
export const ORDER_UNDO_WINDOW = 3600;
/** Shipping by delivery speed, in cents. */
export const SHIPPING = { standard: 499, express: 1499 } as const;
/** Orders above this many cents are medium risk. */
const MEDIUM_RISK_FROM = 20_000;
const CARD = 'card ••4242';
const CURRENCY = 'USD';

type Delivery = keyof typeof SHIPPING;
type Line = { sku: string; qty: number };
type OrderAction = { order: string; lines: Line[]; delivery: Delivery; amount: number };
type Order = OrderAction & { status: 'placed' | 'cancelled' };

const money = (amount: number): Money => ({ amount, currency: CURRENCY });

/** The example shop (shop.example): search a 60-item catalog, order with standard or express. */
export async function createShopService(options: ExampleOptions): Promise<Service> {
  const service = defineExample(
    { id: SHOP_ID, name: 'Example Shop', summary: 'Gadgets and desk gear, delivered.' },
    options,
  );
  await service.store.withData((data) => seedCatalog(data));

  service.ask('shop.search', {
    summary: 'Search the catalog',
    params: { 'query?': 'string' },
    async run(params, ctx) {
      // Each distinct word once: a long query of repeated words costs no more than one of them.
      const words =
        typeof params.query === 'string'
          ? [...new Set(params.query.toLowerCase().split(/\s+/).filter(Boolean))]
          : [];
      const items = (await listItems(ctx.data)).filter((item) => {
        const text = `${item.name} ${item.category} ${item.sku}`.toLowerCase();
        return words.every((w) => text.includes(w));
      });
      return {
        items: items.map((i) => ({
          sku: i.sku,
          name: i.name,
          price: renderMoney(money(i.price)),
          stock: i.stock,
        })),
      };
    },
  });

  service.intent('shop.order', {
    summary: 'Order items',
    params: { items: [{ sku: 'string', qty: 'int' }], 'delivery?': 'standard|express' },
    risk: 'medium',
    transactional: true,
    // §5.1: COMMIT holds each item's stock to the `from` its proposal declared.
    current: 'data',
    async plan(params, ctx) {
      const lines = await checkLines(ctx.data, params);
      const subtotal = lines.reduce((sum, l) => sum + l.item.price * l.qty, 0);
      const speeds: Delivery[] =
        typeof params.delivery === 'string'
          ? [params.delivery as Delivery]
          : ['standard', 'express'];
      return speeds.map((delivery) => orderProposal(lines, subtotal, delivery));
    },
    async apply(action, ctx) {
      const order = action as OrderAction;
      // The stock of every line is still what the proposal declared (`current: 'data'`).
      for (const line of order.lines) {
        const item = (await ctx.data.get(itemKey(line.sku))) as Item;
        await ctx.data.put(itemKey(line.sku), { ...item, stock: item.stock - line.qty });
      }
      ctx.progress(`charging ${renderMoney(money(order.amount))}`, 0.5);
      await ctx.data.put(`order/${order.order}`, {
        ...order,
        status: 'placed',
      } as unknown as JsonValue);
      await ctx.data.put(`ledger/${order.order}`, {
        card: CARD,
        amount: order.amount,
        currency: CURRENCY,
      });
      ctx.progress('order placed', 1);
      return {
        order: order.order,
        total: renderMoney(money(order.amount)),
        delivery: order.delivery,
      };
    },
    async revert(action, ctx) {
      const order = action as OrderAction;
      const stored = (await ctx.data.get(`order/${order.order}`)) as Order | undefined;
      if (stored?.status !== 'placed')
        throw new ParleyError('conflict', 'the order is no longer open');
      const effects = [];
      for (const line of order.lines) {
        const item = (await ctx.data.get(itemKey(line.sku))) as Item;
        await ctx.data.put(itemKey(line.sku), { ...item, stock: item.stock + line.qty });
        effects.push({
          op: 'update' as const,
          target: itemKey(line.sku),
          field: 'stock',
          from: item.stock,
          to: item.stock + line.qty,
        });
      }
      await ctx.data.put(`order/${order.order}`, {
        ...stored,
        status: 'cancelled',
      } as unknown as JsonValue);
      await ctx.data.put(`ledger/${order.order}-refund`, {
        card: CARD,
        amount: -order.amount,
        currency: CURRENCY,
      });
      return {
        effects: [
          {
            op: 'update' as const,
            target: `order/${order.order}`,
            field: 'status',
            from: 'placed',
            to: 'cancelled',
          },
          ...effects,
          {
            op: 'charge' as const,
            target: CARD,
            detail: `refund ${renderMoney(money(order.amount))}`,
          },
        ],
        result: { order: order.order, refunded: renderMoney(money(order.amount)) },
      };
    },
  });
  return service;
}

type CheckedLine = { item: Item; qty: number };

/**
 * The lines of an order, one per sku in the order first named, with the quantities of repeated
 * skus added up: the stock of each item changes once, by the whole quantity (§5.1).
 */
function mergeLines(requested: readonly Line[]): Line[] {
  const bySku = new Map<string, Line>();
  for (const { sku, qty } of requested) {
    const line = bySku.get(sku);
    if (line === undefined) bySku.set(sku, { sku, qty });
    else line.qty += qty;
  }
  return [...bySku.values()];
}

/**
 * A merge patch cannot change one element of a list (RFC 7396), so a fix of one line repeats the
 * whole list; it does so only up to this many lines, or the error would be as long as the order.
 */
const MAX_FIXED_LINES = 100;

/** §7: the fix that changes line `i`: with a params patch while the list is short enough. */
function fixLine(requested: readonly Line[], i: number, change: { say: string; line: Line }): Fix {
  if (requested.length > MAX_FIXED_LINES) return { say: `${change.say} in \`items[${i}]\`` };
  return {
    say: change.say,
    params: { items: requested.map((l, j) => (j === i ? change.line : l)) },
  };
}

/**
 * Every line names a known sku with a quantity in stock, else invalid_params/conflict with fixes.
 */
async function checkLines(data: DataAccess, params: JsonObject): Promise<CheckedLine[]> {
  const requested = params.items as unknown as Line[];
  if (requested.length === 0) {
    throw new ParleyError('invalid_params', '`items` must list at least one item', {
      fix: [{ say: 'ASK shop.search to find items' }],
    });
  }
  // Each item asked for is read once, and the first unknown one stops the check, so an order
  // reads at most the catalog; the whole catalog is listed only to suggest a misspelt sku.
  const items = new Map<string, Item>();
  for (let i = 0; i < requested.length; i++) {
    const { sku, qty } = requested[i] as Line;
    let item = items.get(sku);
    if (item === undefined) {
      item = (await data.get(itemKey(sku))) as Item | undefined;
      if (item !== undefined) items.set(sku, item);
    }
    if (item === undefined) {
      const catalog = new Map((await listItems(data)).map((known) => [known.sku, known]));
      const guess = didYouMean(sku, catalog.keys());
      throw new ParleyError(
        'invalid_params',
        `\`items[${i}].sku\` ${quoteInput(sku)} is not in the catalog`,
        {
          fix:
            guess === undefined
              ? [{ say: 'ASK shop.search to find the sku' }]
              : [
                  fixLine(requested, i, {
                    say: `use ${guess} (${catalog.get(guess)?.name})`,
                    line: { sku: guess, qty },
                  }),
                ],
        },
      );
    }
    if (qty < 1) {
      throw new ParleyError('invalid_params', `\`items[${i}].qty\` must be at least 1`, {
        fix: [fixLine(requested, i, { say: 'order 1', line: { sku, qty: 1 } })],
      });
    }
  }
  const lines = mergeLines(requested).map(({ sku, qty }) => ({
    item: items.get(sku) as Item,
    qty,
  }));
  const short = lines.find((l) => l.qty > l.item.stock);
  if (short !== undefined) {
    const { item } = short;
    // The fix orders what there is, one line per sku.
    const fixed = lines.map((l) => ({ sku: l.item.sku, qty: l === short ? item.stock : l.qty }));
    throw new ParleyError('conflict', `only ${item.stock} of ${item.name} in stock`, {
      fix: item.stock > 0 ? [{ say: `order ${item.stock}`, params: { items: fixed } }] : [],
    });
  }
  return lines;
}

function orderProposal(lines: CheckedLine[], subtotal: number, delivery: Delivery): ProposalDraft {
  const amount = subtotal + SHIPPING[delivery];
  const count = lines.reduce((n, l) => n + l.qty, 0);
  const order = `o_${encodeB64url(randomBytes(6))}`;
  const action: OrderAction = {
    order,
    lines: lines.map((l) => ({ sku: l.item.sku, qty: l.qty })),
    delivery,
    amount,
  };
  return {
    summary: `Order ${count} item${count === 1 ? '' : 's'}, ${delivery} delivery`,
    effects: [
      { op: 'create', target: `order/${order}` },
      ...lines.map((l) => ({
        op: 'update' as const,
        target: itemKey(l.item.sku),
        field: 'stock',
        from: l.item.stock,
        to: l.item.stock - l.qty,
      })),
      { op: 'charge', target: CARD, detail: renderMoney(money(amount)) },
    ],
    cost: money(amount),
    risk: amount >= MEDIUM_RISK_FROM ? 'medium' : 'low',
    undoWindow: ORDER_UNDO_WINDOW,
    data: {
      lines: lines.map((l) => ({
        sku: l.item.sku,
        name: l.item.name,
        qty: l.qty,
        price: renderMoney(money(l.item.price)),
      })),
      shipping: renderMoney(money(SHIPPING[delivery])),
      arrives: delivery === 'express' ? 'next day' : 'in 3-5 days',
    },
    action,
  };
}
