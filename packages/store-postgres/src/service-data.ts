import type { JsonValue } from '@parley/protocol';
import type { DataAccess } from '@parley/service';
import type { Pool } from 'pg';
import { prefixEnd } from './key-range.js';
import { parseJson } from './records.js';
import type { Statement, Statements } from './statements.js';
import { type Run, runStatement } from './transaction.js';

type ValueRow = { value: string | null };
type EntryRow = { key: string; value: string };

/** The four data operations over any way of running statements. */
class StatementData implements DataAccess {
  readonly #run: Run;
  readonly #get: Statement;
  readonly #list: Statement;
  readonly #put: Statement;
  readonly #delete: Statement;

  constructor(
    run: Run,
    statements: { get: Statement; list: Statement; put: Statement; delete: Statement },
  ) {
    this.#run = run;
    this.#get = statements.get;
    this.#list = statements.list;
    this.#put = statements.put;
    this.#delete = statements.delete;
  }

  async get(key: string): Promise<JsonValue | undefined> {
    const value = (await this.#run<ValueRow>(this.#get, [key]))[0]?.value;
    return value === null || value === undefined ? undefined : parseJson(value);
  }

  async put(key: string, value: JsonValue): Promise<void> {
    await this.#run(this.#put, [key, JSON.stringify(value)]);
  }

  async delete(key: string): Promise<void> {
    await this.#run(this.#delete, [key]);
  }

  async list(prefix: string): Promise<[string, JsonValue][]> {
    const rows = await this.#run<EntryRow>(this.#list, [prefix, prefixEnd(prefix)]);
    return rows.map((row) => [row.key, parseJson(row.value)]);
  }
}

/**
 * The service's data outside a transaction: each operation is one statement. Reads take no lock
 * and see the last committed state; writes take the same key and prefix locks as a transaction.
 */
export function poolData(pool: Pool, sql: Statements): DataAccess {
  return new StatementData((statement, values = []) => runStatement(pool, statement, values), {
    get: sql.getData,
    list: sql.listData,
    put: sql.putData,
    delete: sql.deleteData,
  });
}

/**
 * The service's data inside a transaction, on that transaction's client: every operation takes
 * its two-phase lock first (migrations.ts), so what it reads stays true until the commit.
 */
export function transactionData(run: Run, sql: Statements): DataAccess {
  return new StatementData(run, {
    get: sql.getDataLocked,
    list: sql.listDataLocked,
    put: sql.putData,
    delete: sql.deleteData,
  });
}
