export type { PostgresBinaries } from './embedded-postgres-binaries.js';
export {
  type EmbeddedPostgresOptions,
  type EmbeddedPostgresServer,
  startEmbeddedPostgres,
} from './embedded-postgres-server.js';
export {
  ComponentUnavailable,
  type MissingComponent,
  REQUIRE_ALL_ENV,
  TEST_COMPONENTS,
  type TestComponent,
} from './missing-component.js';
export { MissingComponentsReporter } from './missing-components-reporter.js';
export { type ReservedPort, reservePort } from './reserved-port.js';
export {
  CHROMIUM_ENV,
  type ChromiumLaunch,
  type ChromiumPlan,
  planChromium,
  SYSTEM_CHROMIUMS,
  testChromium,
} from './test-chromium.js';
export {
  missingComponents,
  planTestComponents,
  type TestComponents,
  testTags,
} from './test-components.js';
export {
  acquirePostgres,
  DATABASE_URL_ENV,
  dropTestSchema,
  freshTestSchema,
  POSTGRES_ENV,
  type PostgresPlan,
  planPostgres,
  SYSTEM_POSTGRES_URL,
  type TestPostgres,
  testDatabaseUrl,
  withSchema,
} from './test-postgres.js';
