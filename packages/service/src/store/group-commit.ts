import type Database from 'better-sqlite3';
import { killPoint } from '../kill-point.js';

/** How many units one transaction may carry: bounds the wait of the first unit in a batch. */
export const MAX_GROUP = 64;

/** Told how each transaction of the writer ends (the §E3 trail keeps its last row by it). */
export type TransactionOutcomes = { committed(): void; rolledBack(): void };

const NO_ONE: TransactionOutcomes = { committed() {}, rolledBack() {} };

type Unit = {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/**
 * Group commit for one SQLite writer connection. Units of work queue up; each batch is one
 * transaction with a savepoint per unit, so a failing unit rolls back alone, and one COMMIT
 * (one fsync) makes the whole batch durable. A unit's promise settles only after that COMMIT,
 * so nothing a caller acts on can be lost in a crash. Units run one at a time, in order, and
 * may await (an `apply` inside the transaction); units arriving meanwhile join the next batch.
 */
export class GroupCommit {
  readonly #queue: Unit[] = [];
  readonly #begin: Database.Statement;
  readonly #commit: Database.Statement;
  readonly #rollback: Database.Statement;
  readonly #savepoint: Database.Statement;
  readonly #release: Database.Statement;
  readonly #rollbackTo: Database.Statement;
  readonly #db: Database.Database;
  /** The drain in progress; cleared in the same turn its loop finds the queue empty. */
  #draining: Promise<void> | undefined;
  #committed = 0;
  readonly #outcomes: TransactionOutcomes;

  constructor(db: Database.Database, outcomes: TransactionOutcomes = NO_ONE) {
    this.#db = db;
    this.#outcomes = outcomes;
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
    this.#savepoint = db.prepare('SAVEPOINT unit');
    this.#release = db.prepare('RELEASE unit');
    this.#rollbackTo = db.prepare('ROLLBACK TO unit');
  }

  /** Runs `work` inside the next batch's transaction; settles once the batch is durable. */
  run<T>(work: () => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#draining ??= this.#drain();
    });
  }

  /** How many transactions this writer has committed (each may carry many units). */
  get committed(): number {
    return this.#committed;
  }

  /** Resolves when everything queued so far is done. */
  async idle(): Promise<void> {
    while (this.#draining !== undefined) await this.#draining;
  }

  async #drain(): Promise<void> {
    try {
      // Start on a fresh turn so the units of one burst of requests share a batch.
      await Promise.resolve();
      while (this.#queue.length > 0) {
        if (this.#queue.length === 1) await this.#runAlone(this.#queue.pop() as Unit);
        else await this.#runBatch(this.#queue.splice(0, MAX_GROUP));
      }
    } finally {
      // No await between the loop finding the queue empty and this line: a unit queued after
      // it starts a new drain.
      this.#draining = undefined;
    }
  }

  /**
   * A batch of one unit (every sequential write): its own transaction, without a savepoint, as
   * #runBatch would run it; if the unit fails, the transaction rolls back.
   */
  async #runAlone(unit: Unit): Promise<void> {
    try {
      this.#begin.run();
    } catch (error) {
      unit.reject(error);
      return;
    }
    let value: unknown;
    let failure: { error: unknown } | undefined;
    try {
      value = await unit.work();
    } catch (error) {
      failure = { error };
    }
    killPoint('sqlite.batch');
    try {
      if (failure === undefined) {
        this.#commit.run();
        this.#committed++;
        this.#outcomes.committed();
      } else this.#rollBack();
    } catch (error) {
      this.#rollBack();
      unit.reject(error);
      return;
    }
    if (failure === undefined) unit.resolve(value);
    else unit.reject(failure.error);
  }

  /** Rolls back the open transaction, if SQLite has not already, and says so. */
  #rollBack(): void {
    if (this.#db.inTransaction) this.#rollback.run();
    this.#outcomes.rolledBack();
  }

  /** One transaction for several units: a savepoint per unit, one COMMIT; units settle after it. */
  async #runBatch(batch: Unit[]): Promise<void> {
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.#begin.run();
    } catch (error) {
      for (const unit of batch) unit.reject(error);
      return;
    }
    for (const unit of batch) {
      this.#savepoint.run();
      try {
        const value = await unit.work();
        this.#release.run();
        outcomes.push({ ok: true, value });
      } catch (error) {
        this.#rollbackTo.run();
        this.#release.run();
        this.#outcomes.rolledBack();
        outcomes.push({ ok: false, error });
      }
    }
    killPoint('sqlite.batch');
    try {
      this.#commit.run();
      this.#committed++;
      this.#outcomes.committed();
    } catch (error) {
      this.#rollBack();
      for (const unit of batch) unit.reject(error);
      return;
    }
    batch.forEach((unit, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok === true) unit.resolve(outcome.value);
      else unit.reject(outcome?.error);
    });
  }
}
