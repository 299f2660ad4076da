import { createInterface, type Interface } from 'node:readline';

/** Lines typed at this process's terminal (its stdin), one question at a time. */
export class LineReader {
  readonly #lines: Interface;
  readonly #ended: Promise<null>;

  constructor() {
    this.#lines = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    this.#ended = new Promise((resolve) => this.#lines.once('close', () => resolve(null)));
  }

  /** Shows `prompt` and resolves with the line typed, trimmed; null once input has ended. */
  ask(prompt: string): Promise<string | null> {
    const answer = new Promise<string>((resolve) => this.#lines.question(prompt, resolve));
    return Promise.race([answer.then((line) => line.trim()), this.#ended]);
  }

  close(): void {
    this.#lines.close();
  }
}
