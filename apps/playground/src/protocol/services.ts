/** The two example services `npm start` runs, and where the page reaches their HTTP bridges. */
export const SERVICES = {
  calendar: {
    id: 'cal.example.com',
    name: 'Calendar',
    path: '/calendar/parley',
    can: 'calendar.*',
  },
  shop: { id: 'shop.example', name: 'Shop', path: '/shop/parley', can: 'shop.*' },
} as const;

export type ServiceName = keyof typeof SERVICES;
export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];

/** The bridge URL on this page's own origin, so no CORS is needed. */
export function bridgeUrl(service: ServiceName): string {
  return new URL(SERVICES[service].path, window.location.origin).href;
}

/** Tomorrow at 16:00 UTC (free on every seeded day of the example calendar), RFC 3339. */
export function tomorrowAfternoon(now: number = Date.now()): string {
  const day = Math.floor(now / 86_400_000) * 86_400_000 + 86_400_000;
  return new Date(day + 16 * 3_600_000).toISOString().replace('.000Z', 'Z');
}

/** An example of params for each capability, to start from in the request form. */
export function exampleParams(capability: string): Record<string, unknown> {
  switch (capability) {
    case 'calendar.find':
      return { query: 'ana' };
    case 'calendar.reschedule':
      return { event: '1:1 with Ana', to: tomorrowAfternoon() };
    case 'shop.search':
      return { query: 'cable' };
    case 'shop.order':
      return { items: [{ sku: 'aud-5a', qty: 1 }] };
    default:
      return {};
  }
}
