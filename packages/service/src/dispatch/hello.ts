import {
  type BriefBody,
  type Capability,
  DEFAULT_BUDGET,
  estimateLens,
  type HelloRequest,
} from '@parley/protocol';
import type { CapabilityEntry } from '../capability.js';
import { newHandleId } from '../ids.js';
import type { ServiceCore } from './core.js';
import { ownerOf, storeRemainders } from './reply.js';

/** A capability's BRIEF entry (§4.1). */
export function capabilityOf(entry: CapabilityEntry): Capability {
  const capability: Capability = { name: entry.name, kind: entry.kind };
  const { summary, params } = entry.definition;
  if (summary !== undefined) capability.summary = summary;
  if (params !== undefined) capability.params = params;
  if (entry.kind === 'intent' && entry.definition.risk !== undefined) {
    capability.risk = entry.definition.risk;
  }
  return capability;
}

/** The BRIEF of this service with every capability in full. */
export function briefOf(core: ServiceCore): BriefBody {
  const brief: BriefBody = {
    kind: 'BRIEF',
    service: core.info,
    capabilities: [...core.capabilities.values()].map(capabilityOf),
  };
  // docs/extensions.md: announced only when offered, so a v1-only BRIEF is unchanged.
  if (Object.keys(core.extensions).length > 0) brief.ext = core.extensions;
  return brief;
}

/**
 * §4.1 HELLO → BRIEF. When the full BRIEF is over budget, capabilities first lose their params
 * behind one More handle (whose EXPAND returns every capability in full), then trailing
 * capabilities are dropped (§8 list root) until the BRIEF fits.
 */
export async function hello(core: ServiceCore, request: HelloRequest): Promise<BriefBody> {
  const full = briefOf(core);
  const budget = request.budget ?? DEFAULT_BUDGET;
  if (estimateLens(full) <= budget) return full;
  const items = full.capabilities;
  const handle = newHandleId();
  const est = estimateLens({ kind: 'ANSWER', data: { items } });
  const lean: BriefBody = {
    ...full,
    capabilities: items.map(({ params: _params, ...rest }) => rest),
    more: [{ handle, path: 'capabilities', remaining: items.length, est }],
  };
  // §8 list root: whole trailing capabilities go, at least one stays (what fitReply would do).
  while (lean.capabilities.length > 1 && estimateLens(lean) > budget) {
    lean.capabilities = lean.capabilities.slice(0, Math.floor(lean.capabilities.length / 2));
  }
  await storeRemainders(core, ownerOf(null, null), [
    { handle, remainder: { items, listRoot: 'capabilities' } },
  ]);
  return lean;
}
