import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FinalReply, Request } from '@parley/protocol';
import { transformSync } from 'esbuild';

/** The built CLI: the campaign runs what a user runs (`npm run build` makes it). */
const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const SOURCE = fileURLToPath(new URL('./ledger-service.ts', import.meta.url));
/** A start that takes longer than this is a failure of the run, not a slow machine. */
const START_LIMIT_MS = 60_000;

/** Where the served ledger keeps its state: a SQLite data folder or a PostgreSQL URL. */
export type StoreTarget = { kind: 'sqlite'; folder: string } | { kind: 'postgres'; url: string };

export type ServeSettings = {
  store: StoreTarget;
  /** The principal whose grants the service honours (`--trust`). */
  principal: string;
  /** The external ledger file `ledger.send` appends to. */
  ledger: string;
  /** PARLEY_HOME of the child: the campaign's own, so no local key is trusted. */
  home: string;
  /** The service module `serve` loads (`compileLedgerService`). */
  module: string;
};

/**
 * ledger-service.ts as plain JavaScript in `folder`, so each of the campaign's hundreds of starts
 * skips loading tsx (`parley serve` takes .js modules as they are; @parley imports resolve to
 * the CLI's own packages). Returns the file's path.
 */
export function compileLedgerService(folder: string): string {
  const file = join(folder, 'ledger-service.mjs');
  const { code } = transformSync(readFileSync(SOURCE, 'utf8'), { loader: 'ts', format: 'esm' });
  writeFileSync(file, code);
  return file;
}

/**
 * One life of `parley serve ./ledger-service.ts`: a child process on a TCP port the system picks,
 * optionally armed with a kill point (`name:n`, @parley/service kill-point.ts). It ends by a
 * SIGKILL of its own (the point fired), of ours (`kill`), or a SIGTERM (`stop`).
 */
export class ServedLedger {
  readonly child: ChildProcess;
  readonly address: string;
  /** Resolves with the signal (or exit code) once the process is gone. */
  readonly ended: Promise<string>;

  private constructor(child: ChildProcess, address: string, ended: Promise<string>) {
    this.child = child;
    this.address = address;
    this.ended = ended;
  }

  static async start(settings: ServeSettings, killPoint?: string): Promise<ServedLedger> {
    if (!existsSync(BIN)) {
      throw new Error(`no ${BIN}: the campaign serves the built CLI, run npm run build first`);
    }
    const store =
      settings.store.kind === 'sqlite'
        ? ['--data', settings.store.folder]
        : ['--store', settings.store.url];
    const child = spawn(
      process.execPath,
      [
        BIN,
        'serve',
        settings.module,
        '--tcp',
        '127.0.0.1:0',
        '--no-local-trust',
        '--trust',
        settings.principal,
        ...store,
      ],
      {
        env: {
          ...process.env,
          PARLEY_HOME: settings.home,
          CAMPAIGN_LEDGER: settings.ledger,
          PARLEY_TEST_KILL_POINT: killPoint ?? '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const ended = new Promise<string>((resolve) => {
      child.once('exit', (code, signal) => resolve(signal ?? `exit ${String(code)}`));
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    const address = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      const limit = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`parley serve did not listen within ${START_LIMIT_MS} ms: ${stderr}`));
      }, START_LIMIT_MS);
      child.stdout?.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
        const match = /^listening (parley:\/\/\S+) /m.exec(stdout);
        if (match?.[1] !== undefined) {
          clearTimeout(limit);
          resolve(match[1]);
        }
      });
      void ended.then((how) => {
        clearTimeout(limit);
        reject(new Error(`parley serve ended (${how}) before listening: ${stderr}`));
      });
    });
    return new ServedLedger(child, address, ended);
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  #killedByUs = false;

  /** Whether `kill` sent the SIGKILL (else a kill point did, or nobody yet). */
  get killedByUs(): boolean {
    return this.#killedByUs;
  }

  /** SIGKILL from outside (the timed kill points, or to end a life), then the end. */
  async kill(): Promise<string> {
    if (this.running && this.child.pid !== undefined) {
      try {
        process.kill(this.child.pid, 'SIGKILL');
        this.#killedByUs = true;
      } catch {
        // ESRCH: it died by itself a moment ago (its exit is on its way).
      }
    }
    return this.ended;
  }

  /** SIGTERM: a graceful stop that drains the store. */
  async stop(): Promise<string> {
    if (this.running) this.child.kill('SIGTERM');
    return this.ended;
  }
}

/** What a request got: its final reply, or nothing because the connection ended first. */
export type Outcome = { reply: FinalReply } | { lost: true };

/**
 * One agent's NDJSON connection to the service: requests go out as single lines, final replies
 * come back matched by `re` (EVENT lines are skipped), and every request still waiting when the
 * connection ends is answered `lost`.
 */
export class FrameLink {
  readonly #socket: Socket;
  readonly #waiting = new Map<string, (outcome: Outcome) => void>();
  #buffer = '';
  #closed = false;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => this.#read(text));
    const end = (): void => {
      this.#closed = true;
      for (const settle of this.#waiting.values()) settle({ lost: true });
      this.#waiting.clear();
    };
    socket.on('close', end);
    socket.on('error', end);
  }

  /** Connects to `parley://host:port`; rejects if nothing listens there. */
  static open(address: string): Promise<FrameLink> {
    const { hostname, port } = new URL(address.replace(/^parley:/, 'http:'));
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => {
        socket.off('error', reject);
        resolve(new FrameLink(socket));
      });
      socket.once('error', reject);
    });
  }

  #read(text: string): void {
    this.#buffer += text;
    for (let newline = this.#buffer.indexOf('\n'); newline !== -1; ) {
      const reply = JSON.parse(this.#buffer.slice(0, newline)) as FinalReply | { kind: 'EVENT' };
      this.#buffer = this.#buffer.slice(newline + 1);
      newline = this.#buffer.indexOf('\n');
      if (reply.kind === 'EVENT') continue;
      const settle = this.#waiting.get(reply.re);
      this.#waiting.delete(reply.re);
      settle?.({ reply });
    }
  }

  /** Sends `frame` as it is; resolves with its final reply, or `lost`. */
  send(frame: Request): Promise<Outcome> {
    if (this.#closed) return Promise.resolve({ lost: true });
    return new Promise((resolve) => {
      this.#waiting.set(frame.id, resolve);
      this.#socket.write(`${JSON.stringify(frame)}\n`);
    });
  }

  close(): void {
    this.#socket.destroy();
  }
}
