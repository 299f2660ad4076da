import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A Python child of a bench: its process, the port it was given, its first line of output. */
export interface PythonChild {
  readonly process: ChildProcess;
  readonly port: number;
  readonly first: string;
  /** Writes one line to its stdin and resolves with the next line it prints. */
  ask(line: string): Promise<string>;
}

/** A port free on 127.0.0.1 now (the kernel's pick; the child binds it right after). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts `python ARGS` with `path` on PYTHONPATH, the args given a free port, and resolves once
 * it printed its first line (a bot prints it once it listens); rejects with the end of its
 * stderr if it exits first.
 */
export async function startPython(
  { python, path }: { python: string; path: string },
  args: (port: number) => string[],
): Promise<PythonChild> {
  const port = await freePort();
  const child = spawn(python, args(port), {
    env: { ...process.env, PYTHONPATH: path, PYTHONUNBUFFERED: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    log = (log + chunk).slice(-4000);
  });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (let newline = out.indexOf('\n'); newline >= 0; newline = out.indexOf('\n')) {
      const line = out.slice(0, newline);
      out = out.slice(newline + 1);
      const next = waiting.shift();
      if (next === undefined) lines.push(line);
      else next(line);
    }
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`${args(port).join(' ')} exited (${code}): ${log}`)),
    ),
  );
  exited.catch(() => {});
  const nextLine = () =>
    Promise.race([
      new Promise<string>((resolve) => {
        const line = lines.shift();
        if (line === undefined) waiting.push(resolve);
        else resolve(line);
      }),
      exited,
    ]);
  const first = await nextLine();
  return {
    process: child,
    port,
    first,
    ask(line: string) {
      child.stdin?.write(`${line}\n`);
      return nextLine();
    },
  };
}
