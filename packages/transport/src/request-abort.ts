/**
 * The abort of one HTTP request: aborted when its connection closes before the answer is written,
 * or when the server's close deadline passes (HandleContext.signal). Most handlers never read the
 * signal, so its AbortController (an EventTarget, the costliest object of a request) is made only
 * when one does; a signal read after the abort is made aborted already.
 */
export class RequestAbort {
  #controller: AbortController | undefined;
  #aborted = false;

  /** The request's signal, made on first read. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#controller?.abort();
  }
}
