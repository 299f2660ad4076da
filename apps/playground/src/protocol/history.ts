import type { Exchange } from './agent-session.js';
import { SERVICE_NAMES, type ServiceName } from './services.js';

/**
 * Where the page keeps its requests and replies across a reload: sessionStorage, so this tab
 * only, and gone when the tab closes. The history holds what the keys do not need to outlive:
 * the replies' data (meetings, attendees, orders) and each request's grants and proofs. Keeping
 * it per tab keeps it no longer than the visit that made it, while the keys (localStorage) stay
 * for the next visit; and two tabs do not write over each other's history.
 */
const HISTORY_KEY = 'parley-playground/history/v1';
/** At most this many exchanges are kept; the oldest go first. */
export const HISTORY_LIMIT = 200;

type StoredHistory = { agent: string; exchanges: Exchange[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isExchange(value: unknown): value is Exchange {
  return (
    isRecord(value) &&
    Number.isSafeInteger(value.n) &&
    SERVICE_NAMES.includes(value.service as ServiceName) &&
    isRecord(value.request) &&
    typeof value.request.verb === 'string' &&
    isRecord(value.reply) &&
    typeof value.reply.kind === 'string' &&
    typeof value.at === 'number'
  );
}

/**
 * The history kept for the agent `agentKey`; empty for another agent's, or none, or a damaged one.
 */
export function loadHistory(agentKey: string): Exchange[] {
  try {
    const text = window.sessionStorage.getItem(HISTORY_KEY);
    if (text === null) return [];
    const stored = JSON.parse(text) as Partial<StoredHistory>;
    if (stored.agent !== agentKey || !Array.isArray(stored.exchanges)) return [];
    return stored.exchanges.filter(isExchange);
  } catch {
    return [];
  }
}

/**
 * Keeps the last HISTORY_LIMIT exchanges of `agentKey`; when the browser's quota refuses them,
 * keeps the newer half, and so on. The page works on without a kept history.
 */
export function saveHistory(agentKey: string, exchanges: readonly Exchange[]): void {
  let kept = exchanges.slice(-HISTORY_LIMIT);
  for (;;) {
    try {
      const stored: StoredHistory = { agent: agentKey, exchanges: kept };
      window.sessionStorage.setItem(HISTORY_KEY, JSON.stringify(stored));
      return;
    } catch {
      if (kept.length === 0) return;
      kept = kept.slice(Math.ceil(kept.length / 2));
    }
  }
}
