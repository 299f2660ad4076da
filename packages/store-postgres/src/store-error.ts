/** Why a PostgresStore (or openStore) refused to work; local, never sent to a peer. */
export const STORE_ERROR_REASONS = [
  /** The schema name is not a plain lowercase SQL identifier. */
  'bad_schema',
  /** openStore got a URL it does not know how to open. */
  'bad_url',
  /** The database was migrated by newer code than this, past what this code can work with. */
  'schema_too_new',
  /** A contract migration came before the release with its expand was rolled out. */
  'upgrade_order',
  /** Opened with `existing` where no Parley store has been made (a mistyped schema or folder). */
  'no_store',
  /**
   * A finish or undo step named a receipt, a receipt being undone, or an applying commit, the
   * database does not have.
   */
  'missing_record',
] as const;

export type StoreErrorReason = (typeof STORE_ERROR_REASONS)[number];

/** A local failure of the PostgreSQL store: a bad setting or an impossible call. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly reason: StoreErrorReason;

  constructor(reason: StoreErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
