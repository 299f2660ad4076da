import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Reply } from '@parley/protocol';

const FIXTURE = fileURLToPath(new URL('./fixtures/crash-service.ts', import.meta.url));

/** A service child process speaking NDJSON; replies are matched by `re`. */
export class ServiceProcess {
  readonly child: ChildProcess;
  readonly #waiters = new Map<string, { kinds: Set<string>; resolve: (r: Reply) => void }>();
  readonly #seen: Reply[] = [];
  readonly ready: Promise<void>;
  #buffer = '';

  constructor(folder: string, env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, folder], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let markReady: () => void = () => {};
    this.ready = new Promise((resolve) => {
      markReady = resolve;
    });
    this.child.stdout?.setEncoding('utf8');
    this.child.stdout?.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let newline = this.#buffer.indexOf('\n');
      while (newline !== -1) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        const frame = JSON.parse(line) as Reply & { ready?: true };
        if (frame.ready === true) markReady();
        else this.#deliver(frame);
        newline = this.#buffer.indexOf('\n');
      }
    });
  }

  #deliver(reply: Reply): void {
    this.#seen.push(reply);
    const waiter = this.#waiters.get(reply.re);
    if (waiter?.kinds.has(reply.kind)) {
      this.#waiters.delete(reply.re);
      waiter.resolve(reply);
    }
  }

  /** Sends a frame; resolves with the first reply to it of one of `kinds` (default: final ones). */
  send(
    frame: { id: string },
    kinds: string[] = ['BRIEF', 'ANSWER', 'PROPOSALS', 'CLARIFY', 'RECEIPT', 'ERROR'],
  ): Promise<Reply> {
    const result = new Promise<Reply>((resolve) => {
      this.#waiters.set(frame.id, { kinds: new Set(kinds), resolve });
    });
    this.child.stdin?.write(`${JSON.stringify(frame)}\n`);
    return result;
  }

  /** SIGKILL, then wait for the exit. */
  async kill(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }

  /** Closes stdin and waits for a clean exit. */
  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin?.end();
    await exited;
  }
}
