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
  return {
    kind: 'BRIEF',
    service: core.info,
    capabilities: [...core.capabilities.values()].map(capabilityOf),
  };
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
  // §8 list root: whole trailing capabilities go, at least one stays, and as many stay as fit
  // (as fitReply keeps them, fit-body.ts). Each capability adds a line and the More is the same
  // for any count, so the Lens grows with the count and bisection finds the most that fit.
  const all = lean.capabilities;
  if (estimateLens(lean) > budget) {
    let fits = 1;
    let over = all.length;
    while (over - fits > 1) {
      const mid = fits + Math.floor((over - fits) / 2);
      lean.capabilities = all.slice(0, mid);
      if (estimateLens(lean) <= budget) fits = mid;
      else over = mid;
    }
    lean.capabilities = all.slice(0, fits);
  }
  await storeRemainders(core, ownerOf(null, null), [
    { handle, remainder: { items, listRoot: 'capabilities' } },
  ]);
  return lean;
}
