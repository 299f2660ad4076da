import { createCalendarService } from '@parley/examples/calendar';
import { createShopService } from '@parley/examples/shop';
import type { Service, ServiceOptions, Store } from '@parley/service';

/** The bundled example services `parley serve` runs. */
export const EXAMPLE_NAMES = ['calendar', 'shop'] as const;
export type ExampleName = (typeof EXAMPLE_NAMES)[number];

type ExampleFactory = (options: {
  trust: ServiceOptions['trust'];
  store: Store;
  log: (message: string, error: unknown) => void;
}) => Promise<Service>;

const FACTORIES: Readonly<Record<ExampleName, ExampleFactory>> = {
  calendar: createCalendarService,
  shop: createShopService,
};

export function isExampleName(name: string): name is ExampleName {
  return (EXAMPLE_NAMES as readonly string[]).includes(name);
}

/** Creates an example service on `store`. */
export function createExample(
  name: ExampleName,
  options: Parameters<ExampleFactory>[0],
): Promise<Service> {
  return FACTORIES[name](options);
}
