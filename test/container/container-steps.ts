import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CommandResult, type ContainerEngine, runCommand } from './container-engine.js';

/** The repository's root: the build context. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'packages/cli/bin/parley.js');
const COMMAND_LIMIT_MS = 120_000;
const HEALTH_LIMIT_MS = 120_000;

const started = Date.now();

/** Seconds since the run began, for the timeline. */
export function elapsed(since = started): string {
  return ((Date.now() - since) / 1000).toFixed(1);
}

/** One line of the run's timeline. */
export function say(line: string): void {
  process.stdout.write(`[${elapsed().padStart(6)}s] ${line}\n`);
}

/** The part of a reply frame (`--json`) the test reads. */
export type Frame = {
  kind: string;
  proposals?: { id: string }[];
  receipt?: { id: string };
  /** §4.4: on the RECEIPT of a COMMIT already done. */
  replay?: boolean;
};

/** What a run made, removed in reverse order at its end; nothing else is ever removed. */
export class MadeThings {
  readonly #items: { what: string; remove: () => Promise<unknown> }[] = [];

  add(what: string, remove: () => Promise<unknown>): void {
    this.#items.push({ what, remove });
  }

  async removeAll(): Promise<void> {
    for (const item of this.#items.splice(0).reverse()) {
      try {
        await item.remove();
      } catch (error) {
        say(`could not remove ${item.what}: ${error instanceof Error ? error.message : error}`);
      }
    }
  }
}

/** An engine command (`run`, `logs`, …) that must succeed: its stdout. */
export async function engineRun(engine: ContainerEngine, args: string[]): Promise<string> {
  const [command, argv] = engine.cli(...args);
  return (await runCommand(command, argv, { timeoutMs: COMMAND_LIMIT_MS, check: true })).stdout;
}

/** Everything a container printed, stdout and stderr. */
export async function containerLog(engine: ContainerEngine, name: string): Promise<string> {
  const [command, args] = engine.cli('logs', name);
  const result = await runCommand(command, args, { timeoutMs: COMMAND_LIMIT_MS, check: true });
  return result.stdout + result.stderr;
}

/**
 * Runs a container detached (`args` go between `run --detach --name NAME` and the image, the
 * command after it), records it for removal, and waits until the image's HEALTHCHECK passes.
 */
export async function runHealthy(
  engine: ContainerEngine,
  made: MadeThings,
  name: string,
  args: readonly string[],
): Promise<void> {
  await engineRun(engine, ['run', '--detach', '--name', name, ...args]);
  // -v: the anonymous volume a container gets for /data when none is named goes with it.
  made.add(`container ${name}`, () => engineRun(engine, ['rm', '--force', '--volumes', name]));
  const since = Date.now();
  for (;;) {
    if (await engine.healthy(name)) break;
    const state = (
      await engineRun(engine, ['inspect', '--format', '{{.State.Status}}', name])
    ).trim();
    if (state === 'exited' || Date.now() - since > HEALTH_LIMIT_MS) {
      throw new Error(
        `${name} is ${state}, not healthy, after ${elapsed(since)} s:\n${await containerLog(engine, name)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  say(`${name} healthy after ${elapsed(since)} s (the image's HEALTHCHECK)`);
}

/** This repository's CLI on the host, with its own PARLEY_HOME; a non-zero exit throws. */
export function hostCli(home: string, args: readonly string[]): Promise<CommandResult> {
  return runCommand(process.execPath, [CLI, ...args], {
    timeoutMs: COMMAND_LIMIT_MS,
    check: true,
    env: { ...process.env, PARLEY_HOME: home },
  });
}

/** A port free on 127.0.0.1 now (the container binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}
