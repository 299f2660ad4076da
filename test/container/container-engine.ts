import { spawn } from 'node:child_process';

/** What one command printed, and how it ended. */
export type CommandResult = { code: number | null; stdout: string; stderr: string };

/** A command that failed: the command line and the end of what it printed, in one sentence. */
export class CommandError extends Error {
  constructor(
    readonly command: string,
    readonly result: CommandResult,
  ) {
    const tail = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-15).join('\n');
    super(`${command} ended with ${String(result.code)}:\n${tail}`);
  }
}

/**
 * Runs a command to its end (killed after `timeoutMs`), with `onLine` seeing each line of its
 * output as it comes; `check` makes a non-zero exit a CommandError.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: {
    timeoutMs: number;
    check?: boolean;
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    onLine?: (line: string) => void;
  },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let partial = '';
    const see = (chunk: string): void => {
      if (options.onLine === undefined) return;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) options.onLine(line);
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      see(chunk);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      see(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${command}: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (partial !== '') options.onLine?.(partial);
      const result = { code, stdout, stderr };
      const line = [command, ...args].join(' ');
      if (options.check === true && code !== 0) reject(new CommandError(line, result));
      else resolve(result);
    });
  });
}

/**
 * How this machine builds and runs images. `podman`: buildah builds (chroot isolation, the
 * host's network, and the host's CA store mounted, because the registries are reached through a
 * TLS proxy whose CA only that store holds) and podman runs with runc; `docker`: docker does both.
 */
export type EngineName = 'podman' | 'docker';

/** The commands of one engine. */
export interface ContainerEngine {
  readonly name: EngineName;
  /** The build command for the Dockerfile in `context`, tagged `tag`, on image `base`. */
  build(context: string, tag: string, base: string | undefined): [string, string[]];
  /** A container-engine command (`run`, `logs`, `exec`, `rm`, …) as argv. */
  cli(...args: string[]): [string, string[]];
  /** Runs the image's HEALTHCHECK now, or reads its last result: whether it is healthy. */
  healthy(container: string): Promise<boolean>;
}

/** The engine `name` names (PARLEY_CONTAINER_ENGINE), podman with buildah by default. */
export function containerEngine(name: string | undefined): ContainerEngine {
  if (name === undefined || name === '' || name === 'podman') return podmanEngine();
  if (name === 'docker') return dockerEngine();
  throw new Error(`PARLEY_CONTAINER_ENGINE is podman or docker (got "${name}")`);
}

function podmanEngine(): ContainerEngine {
  // runc: the runtime that works here (crun is not installed everywhere podman is).
  const cli = (...args: string[]): [string, string[]] => ['podman', ['--runtime', 'runc', ...args]];
  return {
    name: 'podman',
    build: (context, tag, base) => [
      'buildah',
      [
        'build',
        '--isolation',
        'chroot',
        '--network',
        'host',
        '--volume',
        '/etc/ssl/certs:/etc/ssl/certs:ro',
        // OCI images have no HEALTHCHECK: the docker format keeps it.
        '--format',
        'docker',
        '--layers',
        ...(base === undefined ? [] : ['--build-arg', `BASE=${base}`]),
        '-t',
        tag,
        context,
      ],
    ],
    cli,
    healthy: async (container) => {
      const [command, args] = cli('healthcheck', 'run', container);
      const result = await runCommand(command, args, { timeoutMs: 30_000 });
      return result.code === 0;
    },
  };
}

function dockerEngine(): ContainerEngine {
  const cli = (...args: string[]): [string, string[]] => ['docker', args];
  return {
    name: 'docker',
    build: (context, tag, base) => [
      'docker',
      ['build', ...(base === undefined ? [] : ['--build-arg', `BASE=${base}`]), '-t', tag, context],
    ],
    cli,
    healthy: async (container) => {
      const [command, args] = cli('inspect', '--format', '{{.State.Health.Status}}', container);
      const result = await runCommand(command, args, { timeoutMs: 30_000 });
      return result.stdout.trim() === 'healthy';
    },
  };
}
