import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import type { Statement } from './statements.js';

/**
 * How often a step is tried when PostgreSQL aborts it to break a deadlock (or a serialization
 * failure, should the server force SERIALIZABLE): the aborted attempt left nothing behind.
 */
export const MAX_ATTEMPTS = 5;

// deadlock_detected, serialization_failure: the transaction was rolled back and may be re-run.
const RETRYABLE_CODES: ReadonlySet<string> = new Set(['40P01', '40001']);

/**
 * READ COMMITTED whatever the server's default: the step functions and locks are written for it.
 */
const BEGIN = 'BEGIN ISOLATION LEVEL READ COMMITTED';

export function isRetryable(error: unknown): boolean {
  return RETRYABLE_CODES.has(sqlState(error) ?? '');
}

/** The SQLSTATE of a server error, if it is one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Runs one statement; bind values in order. */
export type Run = <R extends QueryResultRow>(
  statement: Statement,
  values?: unknown[],
) => Promise<R[]>;

/** One statement on the pool, as its own transaction; re-run if it was aborted for a deadlock. */
export async function runStatement<R extends QueryResultRow>(
  pool: Pool,
  statement: Statement,
  values: unknown[],
): Promise<R[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await pool.query<R>({ ...statement, values })).rows;
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
    }
  }
}

/**
 * One transaction on one pooled client. Statements run one after another even when the caller
 * starts several at once (a client must never carry two queries at a time), and the first failure
 * is latched: once the server has aborted the transaction, later statements fail with that error
 * instead of being sent. After the transaction ends nothing more reaches the client, which may by
 * then serve someone else.
 *
 * On a client in pg's pipeline mode, BEGIN and the first statement leave in one write, and so do
 * the last statement and COMMIT: a transaction of three statements costs two round trips.
 */
export class Session {
  readonly #client: PoolClient;
  readonly #pipelined: boolean;
  #tail: Promise<unknown> = Promise.resolve();
  #failure: { error: unknown } | undefined;
  /** Whether the server has a transaction open for this session (BEGIN answered, no end yet). */
  #open = false;
  #ended = false;

  constructor(client: PoolClient) {
    this.#client = client;
    this.#pipelined = client.pipeline === true;
  }

  /** The first statement that failed in this transaction, if one did. */
  get failure(): unknown {
    return this.#failure?.error;
  }

  /** Queues `work` behind every statement already started; latches its failure. */
  #queue<T>(work: () => Promise<T>): Promise<T> {
    if (this.#ended) return Promise.reject(new Error('the transaction has ended'));
    const result = this.#tail.then(async () => {
      if (this.#failure !== undefined) throw this.#failure.error;
      try {
        return await work();
      } catch (error) {
        this.#failure ??= { error };
        throw error;
      }
    });
    this.#tail = result.catch(() => {});
    return result;
  }

  #query<R extends QueryResultRow>(
    statement: Statement | string,
    values: unknown[] = [],
  ): Promise<QueryResult<R>> {
    const config = typeof statement === 'string' ? { text: statement } : statement;
    return this.#client.query<R>({ ...config, values });
  }

  /**
   * Two statements written together (pipelined client): both leave in one write and the server
   * answers both in one round trip. A failure of the first aborts the transaction on the server,
   * so a COMMIT behind it rolls back.
   */
  #pair<A extends QueryResultRow, B extends QueryResultRow>(
    first: Statement | string,
    firstValues: unknown[],
    second: Statement | string,
    secondValues: unknown[],
  ): [Promise<QueryResult<A>>, Promise<QueryResult<B>>] {
    const stream = this.#client.connection.stream;
    stream.cork();
    try {
      const a = this.#query<A>(first, firstValues);
      const b = this.#query<B>(second, secondValues);
      a.catch(() => {});
      b.catch(() => {});
      return [a, b];
    } finally {
      stream.uncork();
    }
  }

  /** BEGIN, then `statement` (if any) in the same round trip when pipelined; its rows. */
  start<R extends QueryResultRow>(statement?: Statement, values: unknown[] = []): Promise<R[]> {
    return this.#queue(async () => {
      if (statement === undefined || !this.#pipelined) {
        await this.#query(BEGIN);
        this.#open = true;
        return statement === undefined ? [] : (await this.#query<R>(statement, values)).rows;
      }
      const [begin, result] = this.#pair<QueryResultRow, R>(BEGIN, [], statement, values);
      await begin;
      this.#open = true;
      return (await result).rows;
    });
  }

  readonly run: Run = <R extends QueryResultRow>(statement: Statement, values?: unknown[]) =>
    this.#queue(async () => (await this.#query<R>(statement, values)).rows);

  /**
   * `statement`, then COMMIT (in the same round trip when pipelined); no statement may follow.
   * If the statement fails, its error is thrown and nothing is kept: pipelined, the COMMIT that
   * was already on its way has rolled back; otherwise `end` rolls back.
   */
  finish<R extends QueryResultRow>(statement: Statement, values: unknown[]): Promise<R[]> {
    const result = this.#queue(async () => {
      if (!this.#pipelined) {
        const rows = (await this.#query<R>(statement, values)).rows;
        await this.#commit(this.#query('COMMIT'));
        return rows;
      }
      const [rows, commit] = this.#pair<R, QueryResultRow>(statement, values, 'COMMIT', []);
      try {
        const { rows: kept } = await rows;
        await this.#commit(commit);
        return kept;
      } catch (error) {
        await commit.then(
          () => {
            this.#open = false;
          },
          () => {},
        );
        throw error;
      }
    });
    this.#ended = true;
    return result;
  }

  async #commit(commit: Promise<QueryResult>): Promise<void> {
    const { command } = await commit;
    this.#open = false;
    if (command !== 'COMMIT') throw new Error(`COMMIT answered ${command}`);
  }

  /**
   * Ends the transaction if it is still open: COMMIT, or ROLLBACK. After a latched failure a
   * COMMIT rolls back instead and throws that failure (the server would answer COMMIT of an
   * aborted transaction with a silent rollback).
   */
  async end(command: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    this.#ended = true;
    await this.#tail;
    const failed = this.#failure !== undefined;
    if (this.#open) {
      await this.#client.query(failed ? 'ROLLBACK' : command);
      this.#open = false;
    }
    if (command === 'COMMIT' && failed) throw this.#failure?.error;
  }
}

/** What a transaction's work decides: its value, and whether its writes are kept. */
export type Outcome<T> = { value: T; keep: boolean };

/**
 * A transaction on one client held from BEGIN to its end: `work` starts it (Session.start) and
 * may finish it (Session.finish); otherwise it is committed (`keep`) or rolled back here, and
 * rolled back whenever `work` throws. When the server aborted the attempt to break a deadlock,
 * the work runs again from the start (its writes went nowhere); other errors are rethrown.
 */
export async function runTransaction<T>(
  pool: Pool,
  work: (session: Session) => Promise<Outcome<T>>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    const session = new Session(client);
    let unusable: Error | undefined;
    try {
      let outcome: Outcome<T>;
      try {
        outcome = await work(session);
      } catch (error) {
        await session.end('ROLLBACK').catch((rollbackError: Error) => {
          unusable = rollbackError;
        });
        if (attempt < MAX_ATTEMPTS && isRetryable(session.failure ?? error)) continue;
        throw error;
      }
      try {
        await session.end(outcome.keep ? 'COMMIT' : 'ROLLBACK');
      } catch (error) {
        const rolledBack = error === session.failure;
        if (rolledBack && attempt < MAX_ATTEMPTS && isRetryable(error)) continue;
        // A COMMIT that failed by itself is never retried: the server may have committed.
        if (!rolledBack) unusable = error as Error;
        throw error;
      }
      return outcome.value;
    } finally {
      client.release(unusable);
    }
  }
}
