import type { Agent as HttpAgent } from 'node:http';
import { ConsensusError } from '../errors.js';
import { delegatePool } from './exchange.js';
import { FreshLanes } from './fresh-exchange.js';

/**
 * Kept-alive connections to delegates that outlive one decision. A long-lived coordinator passes
 * the same DelegateConnections to each `runAcrossDelegates` (or `RemoteAgent.discover`), so a
 * decision reuses the connections earlier ones opened instead of connecting anew; a run without
 * one opens its own and closes them when it ends. Only the connections carry over: every request
 * still carries its token, and every run fetches the cards, checks them against its roster and
 * opens its own session. The holder closes them once it is done deciding.
 */
export class DelegateConnections {
  readonly #pools = new Map<string, HttpAgent>();
  readonly #lanes = new Map<string, FreshLanes>();
  /** Origins whose last card came on a connection the delegate closed after its answer. */
  readonly #closing = new Set<string>();
  #closed = false;

  /** The pool for the delegate at `base` with at most `sockets` connections, made on first use. */
  pool(base: URL, sockets: number): HttpAgent {
    this.#checkOpen();
    const name = `${sockets} ${base.origin}`;
    let pool = this.#pools.get(name);
    if (pool === undefined) {
      pool = delegatePool(base, sockets);
      this.#pools.set(name, pool);
    }
    return pool;
  }

  /**
   * The lanes for a delegate at `base` that closes each connection (at most `size` in flight),
   * made on first use: runs that share these connections share its bound too.
   */
  lanes(base: URL, size: number): FreshLanes {
    this.#checkOpen();
    const name = `${size} ${base.origin}`;
    let lanes = this.#lanes.get(name);
    if (lanes === undefined) {
      lanes = new FreshLanes(size);
      this.#lanes.set(name, lanes);
    }
    return lanes;
  }

  /** Whether the delegate at `base` closed the connection after its last card. */
  closesEach(base: URL): boolean {
    return this.#closing.has(base.origin);
  }

  /** Remembers whether the delegate at `base` closed the connection after its card. */
  noteCloses(base: URL, closes: boolean): void {
    if (closes) this.#closing.add(base.origin);
    else this.#closing.delete(base.origin);
  }

  /** How many connections are open now, in use or kept alive: what a test can observe. */
  get open(): number {
    let count = 0;
    for (const pool of this.#pools.values()) {
      for (const list of [pool.sockets, pool.freeSockets]) {
        for (const sockets of Object.values(list)) count += sockets?.length ?? 0;
      }
    }
    for (const lanes of this.#lanes.values()) count += lanes.busy;
    return count;
  }

  /** Closes every connection; these connections cannot be used again. */
  close(): void {
    this.#closed = true;
    for (const pool of this.#pools.values()) pool.destroy();
    for (const lanes of this.#lanes.values()) lanes.destroy();
    this.#pools.clear();
    this.#lanes.clear();
    this.#closing.clear();
  }

  #checkOpen(): void {
    if (this.#closed) {
      throw new ConsensusError('bad_value', 'these delegate connections are closed');
    }
  }
}
