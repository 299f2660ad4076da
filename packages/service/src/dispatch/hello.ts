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
 * §4.1, §8: the BRIEF `full` fitted to `budget` when it is over it: every capability loses its
 * params behind the More `handle` (whose EXPAND returns every capability in full), then trailing
 * capabilities go (§8 list root), at least one staying, and as many staying as fit (as fitReply
 * keeps them, fit-body.ts). Each capability adds a line and the More is the same for any count,
 * so the Lens grows with the count and bisection finds the most that fit.
 */
export function leanBrief(full: BriefBody, budget: number, handle: string): BriefBody {
  const items = full.capabilities;
  const est = estimateLens({ kind: 'ANSWER', data: { items } });
  const all = items.map(({ params: _params, ...rest }) => rest);
  const lean: BriefBody = {
    ...full,
    capabilities: all,
    more: [{ handle, path: 'capabilities', remaining: items.length, est }],
  };
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
  return lean;
}

/** §4.1 HELLO → BRIEF: in full when it fits the budget, else leanBrief. */
export async function hello(core: ServiceCore, request: HelloRequest): Promise<BriefBody> {
  const full = briefOf(core);
  const budget = request.budget ?? DEFAULT_BUDGET;
  if (estimateLens(full) <= budget) return full;
  const handle = newHandleId();
  await storeRemainders(core, ownerOf(null, null), [
    { handle, remainder: { items: full.capabilities, listRoot: 'capabilities' } },
  ]);
  return leanBrief(full, budget, handle);
}
