import type { ServiceOptions, Store } from '@parley/service';
import { type ReadinessProbe, sharedProbe } from '@parley/transport';
import { reasonOf } from '../home/parley-home.js';

/** An id no proposal has (ids are random base32url): reading it costs one indexed lookup. */
const PROBE_PROPOSAL_ID = 'readyz-probe';

/**
 * What /readyz checks for a service `name` (health.ts): its store answers a read (SQLite file
 * open, PostgreSQL reachable with its schema), and its keys are loaded: at least one principal
 * is trusted, else every grant would be refused. A live trust set (pairing) counts as loaded.
 */
export function serviceReadiness(
  name: string,
  store: Store,
  trust: ServiceOptions['trust'],
): ReadinessProbe {
  return sharedProbe(async () => {
    const problems: string[] = [];
    if (Array.isArray(trust) && trust.length === 0) {
      problems.push(`${name}: no principal key is trusted, so every grant would be refused`);
    }
    try {
      await store.getProposal(PROBE_PROPOSAL_ID);
    } catch (error) {
      problems.push(`${name}: the store does not answer (${reasonOf(error)})`);
    }
    return problems;
  });
}
