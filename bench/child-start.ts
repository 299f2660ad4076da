import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Spawns `node ARGS` and resolves with the child and what `pattern` captures from its stdout
 * (an address it listens on); rejects with the end of its stderr if it exits first.
 */
export function startChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
): Promise<[ChildProcess, string]> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    log = (log + chunk).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const found = pattern.exec(out)?.[1];
      if (found !== undefined) resolve([child, found]);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}): ${log}`)));
  });
}

/**
 * Spawns `node ARGS` with `env` over this process's environment, adds it to `children` at once
 * (so they stay in the order they were started), and resolves with the first line it prints;
 * rejects if it exits first. `stderr`: 'inherit' to show it, 'ignore' for a chatty child, or a
 * pattern: its lines are shown but those it matches (a delegate's routine log, say).
 */
export function firstLineOf(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  children: ChildProcess[],
  stderr: 'inherit' | 'ignore' | RegExp,
): Promise<string> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', stderr instanceof RegExp ? 'pipe' : stderr],
  });
  children.push(child);
  if (stderr instanceof RegExp && child.stderr !== null) {
    createInterface({ input: child.stderr }).on('line', (line) => {
      if (!stderr.test(line)) process.stderr.write(`${line}\n`);
    });
  }
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code})`)));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve(out.slice(0, newline));
    });
  });
}

/**
 * Ends every process in `children` (as they stand then) when this process exits, so a bench that
 * fails part way leaves nothing running.
 */
export function endOnExit(children: readonly ChildProcess[]): void {
  process.on('exit', () => {
    for (const child of children) child.kill('SIGTERM');
  });
}
