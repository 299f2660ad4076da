/** Runs async sections one at a time, in arrival order (one writer, as SQLite allows). */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(section);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
