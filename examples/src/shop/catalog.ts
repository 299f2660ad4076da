import type { DataAccess } from '@parley/service';

/** One catalog item as the shop keeps it; prices in cents. */
export type Item = { sku: string; name: string; category: string; price: number; stock: number };

export const itemKey = (sku: string): string => `item/${sku}`;
const SEEDED_KEY = 'meta/seeded';

const LINES: readonly [string, string, readonly string[], number][] = [
  ['cable', 'USB-C cable', ['0.5m', '1m', '2m', '3m'], 799],
  ['cable', 'HDMI cable', ['1m', '2m', '5m'], 1199],
  ['charger', 'Wall charger', ['20W', '35W', '65W', '100W'], 1999],
  ['audio', 'Earbuds', ['black', 'white', 'blue'], 4999],
  ['audio', 'Headphones', ['black', 'silver'], 8999],
  ['audio', 'Speaker', ['mini', 'medium', 'large'], 3999],
  ['desk', 'Desk lamp', ['warm', 'cool'], 2999],
  ['desk', 'Monitor stand', ['wood', 'steel'], 3499],
  ['desk', 'Mouse pad', ['S', 'M', 'L', 'XL'], 999],
  ['input', 'Wireless mouse', ['black', 'white'], 2499],
  ['input', 'Keyboard', ['US', 'UK', 'DE', 'FR'], 5999],
  ['storage', 'USB stick', ['32GB', '64GB', '128GB', '256GB'], 1299],
  ['storage', 'SSD', ['500GB', '1TB', '2TB'], 6999],
  ['storage', 'SD card', ['64GB', '128GB', '256GB'], 1599],
  ['bags', 'Laptop sleeve', ['13in', '14in', '16in'], 2199],
  ['bags', 'Backpack', ['grey', 'black', 'green'], 6499],
  ['power', 'Power bank', ['10000mAh', '20000mAh'], 3299],
  ['power', 'Power strip', ['4-way', '6-way'], 1899],
  ['video', 'Webcam', ['720p', '1080p', '4K'], 4499],
  ['video', 'Ring light', ['S', 'L'], 2599],
  ['cable', 'Lightning cable', ['1m', '2m'], 999],
  ['desk', 'Cable clips', ['6-pack', '12-pack'], 499],
];

/** The catalog: 60+ items, the same on every machine. */
export function catalog(): Item[] {
  const items: Item[] = [];
  LINES.forEach(([category, name, variants, base], line) => {
    variants.forEach((variant, v) => {
      items.push({
        sku: `${category.slice(0, 3)}-${line + 1}${String.fromCharCode(97 + v)}`,
        name: `${name} ${variant}`,
        category,
        price: base + v * 300,
        stock: 5 + ((line * 7 + v * 3) % 20),
      });
    });
  });
  return items;
}

/** Seeds the catalog once. */
export async function seedCatalog(data: DataAccess): Promise<void> {
  if ((await data.get(SEEDED_KEY)) !== undefined) return;
  for (const item of catalog()) await data.put(itemKey(item.sku), item);
  await data.put(SEEDED_KEY, true);
}

export async function listItems(data: DataAccess): Promise<Item[]> {
  return (await data.list('item/')).map(([, v]) => v as unknown as Item);
}
