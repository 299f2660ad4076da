import type { CaseRecord } from '../record.js';

/**
 * Where cases live (module 09: versioned get, append, private parts, delete). Every write is
 * one transaction; `save` is optimistic: it writes only if the case is still at
 * `expectedVersion`, so two instances can never both move one case from the same state.
 * Private parts are sealed (AES-256-GCM) before they reach the database.
 */
export interface CaseStore {
  /** Stores a new case. */
  insert(record: CaseRecord, expiresAt: number): Promise<void>;
  /** The case, or null. */
  load(caseId: string): Promise<CaseRecord | null>;
  /** The case a link hash opens, or null. */
  caseOfLink(hash: string): Promise<string | null>;
  /** Writes `record` if the stored case is still at `expectedVersion`; false when it moved. */
  save(record: CaseRecord, expectedVersion: number, expiresAt: number): Promise<boolean>;
  /** Deletes the case and everything of it, its data key included; false when there was none. */
  delete(caseId: string): Promise<boolean>;
  /** The ids of cases whose retention ended at `now`. */
  expired(now: number): Promise<string[]>;
  close(): Promise<void>;
}

/** The table names both stores use. */
export const TABLES = {
  cases: 'parley_cases',
  privates: 'parley_case_private',
  links: 'parley_case_links',
} as const;
