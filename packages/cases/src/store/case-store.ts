import type { CreateRequest } from '../create-request.js';
import type { CaseRecord } from '../record.js';

/** A keyed create as stored, with the case it made. */
export interface StoredRequest extends CreateRequest {
  readonly caseId: string;
}

/**
 * Where cases live (module 09: versioned get, append, private parts, delete). Every write is
 * one transaction; `save` is optimistic: it writes only if the case is still at
 * `expectedVersion`, so two instances can never both move one case from the same state.
 * Private parts are sealed (AES-256-GCM) before they reach the database.
 */
export interface CaseStore {
  /**
   * Stores a new case, and with it the keyed create that made it (unique by key hash); false,
   * with nothing written, when that key already made a case (a retry, possibly concurrent).
   */
  insert(record: CaseRecord, expiresAt: number, request?: CreateRequest): Promise<boolean>;
  /** The keyed create of this key hash, or null (none, or its case was deleted). */
  requestOf(keyHash: string): Promise<StoredRequest | null>;
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
  requests: 'parley_case_requests',
} as const;
