import { createInterface, type Interface } from 'node:readline';

/**
 * Lines typed at this process's terminal (its stdin), one question at a time. Lines typed or
 * pasted ahead of a question are kept in order for the questions that follow, never dropped.
 */
export class LineReader {
  readonly #lines: Interface;
  readonly #queue: string[] = [];
  #waiting: ((line: string | null) => void) | null = null;
  #closed = false;

  constructor() {
    this.#lines = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    this.#lines.on('line', (line) => {
      const waiting = this.#waiting;
      this.#waiting = null;
      if (waiting === null) this.#queue.push(line);
      else waiting(line.trim());
    });
    this.#lines.once('close', () => {
      this.#closed = true;
      this.#waiting?.(null);
      this.#waiting = null;
    });
  }

  /** Shows `prompt` and resolves with the next line, trimmed; null once input has ended. */
  ask(prompt: string): Promise<string | null> {
    const cut = prompt.lastIndexOf('\n') + 1;
    process.stdout.write(prompt.slice(0, cut));
    this.#lines.setPrompt(prompt.slice(cut));
    this.#lines.prompt();
    const next = this.#queue.shift();
    if (next !== undefined) {
      process.stdout.write(`${next}\n`);
      return Promise.resolve(next.trim());
    }
    if (this.#closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  close(): void {
    this.#lines.close();
  }
}
