import type { Agent as HttpAgent } from 'node:http';
import { ConsensusError } from '../errors.js';
import { delegatePool } from './exchange.js';

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
  #closed = false;

  /** The pool for the delegate at `base` with at most `sockets` connections, made on first use. */
  pool(base: URL, sockets: number): HttpAgent {
    if (this.#closed) {
      throw new ConsensusError('bad_value', 'these delegate connections are closed');
    }
    const name = `${sockets} ${base.origin}`;
    let pool = this.#pools.get(name);
    if (pool === undefined) {
      pool = delegatePool(base, sockets);
      this.#pools.set(name, pool);
    }
    return pool;
  }

  /** How many connections are open now, in use or kept alive: what a test can observe. */
  get open(): number {
    let count = 0;
    for (const pool of this.#pools.values()) {
      for (const list of [pool.sockets, pool.freeSockets]) {
        for (const sockets of Object.values(list)) count += sockets?.length ?? 0;
      }
    }
    return count;
  }

  /** Closes every connection; these connections cannot be used again. */
  close(): void {
    this.#closed = true;
    for (const pool of this.#pools.values()) pool.destroy();
    this.#pools.clear();
  }
}
