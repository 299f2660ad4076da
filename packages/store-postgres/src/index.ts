export { type MigrateOptions, migrate } from './migrate.js';
export { MIGRATIONS, type Migration, POSTGRES_SCHEMA_VERSION } from './migrations.js';
export { type OpenStoreOptions, openStore } from './open-store.js';
export { PostgresStore, type PostgresStoreOptions } from './postgres-store.js';
export { DEFAULT_SCHEMA } from './schema-name.js';
export { STORE_ERROR_REASONS, StoreError, type StoreErrorReason } from './store-error.js';
export { MAX_ATTEMPTS } from './transaction.js';
