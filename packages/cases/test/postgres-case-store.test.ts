// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import { randomBytes } from 'node:crypto';
import { testDatabaseUrl } from '@parley/test-support';
import pg from 'pg';
import { PostgresCaseStore, TABLES } from '../src/index.js';
import { describeCaseStoreContract } from './case-store-contract.js';

describeCaseStoreContract('PostgresCaseStore', async () => {
  const url = testDatabaseUrl();
  const schema = `cases_${randomBytes(6).toString('hex')}`;
  const key = randomBytes(32);
  const first = await PostgresCaseStore.open(url, key, schema);
  const second = await PostgresCaseStore.open(url, key, schema);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  return {
    first,
    second,
    // Every row of every table of the schema, as text (bytea as hex and as latin1).
    raw: async () => {
      const parts: string[] = [];
      for (const table of Object.values(TABLES)) {
        const rows = await admin.query(`SELECT * FROM "${schema}".${table}`);
        for (const row of rows.rows) {
          for (const value of Object.values(row)) {
            parts.push(Buffer.isBuffer(value) ? value.toString('latin1') : String(value));
          }
        }
      }
      return parts.join('\n');
    },
    cleanup: async () => {
      await first.close();
      await second.close();
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    },
  };
});
