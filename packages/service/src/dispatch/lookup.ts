import { ParleyError } from '@parley/protocol';
import type { CapabilityEntry } from '../capability.js';
import { didYouMean } from '../params/did-you-mean.js';
import { quoteInput } from '../quote-input.js';
import type { ServiceCore } from './core.js';

/** §7 unknown_capability, with a did-you-mean fix when a capability of that kind is close. */
export function lookupCapability<K extends CapabilityEntry['kind']>(
  core: ServiceCore,
  name: string,
  kind: K,
): Extract<CapabilityEntry, { kind: K }> {
  const entry = core.capabilities.get(name);
  if (entry?.kind === kind) return entry as Extract<CapabilityEntry, { kind: K }>;
  const verb = kind === 'ask' ? 'ASK' : 'INTENT';
  if (entry !== undefined) {
    const other = entry.kind === 'ask' ? 'ASK' : 'INTENT';
    throw new ParleyError(
      'unknown_capability',
      `${name} is an ${entry.kind} capability: send it with ${other}, not ${verb}`,
      { fix: [{ say: `send ${other} ${name}` }] },
    );
  }
  const sameKind = [...core.capabilities.values()]
    .filter((c) => c.kind === kind)
    .map((c) => c.name);
  const guess = didYouMean(name, sameKind);
  const shown = quoteInput(name);
  throw new ParleyError(
    'unknown_capability',
    guess === undefined
      ? `this service has no ${kind} capability ${shown}; HELLO lists them`
      : `this service has no ${kind} capability ${shown}; did you mean ${guess}?`,
    {
      fix: [{ say: guess === undefined ? 'send HELLO to list the capabilities' : `use ${guess}` }],
    },
  );
}
