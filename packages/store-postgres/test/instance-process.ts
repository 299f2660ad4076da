import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('./fixtures/acme-instance.ts', import.meta.url));

/** A service instance in its own process (fixtures/acme-instance.ts), on a shared schema. */
export class InstanceProcess {
  readonly child: ChildProcess;
  /** Resolves with the parley:// address once the instance listens. */
  readonly address: Promise<string>;
  /**
   * Its pool's PostgreSQL application_name: the name and the schema, so the sessions a test
   * counts (pg_stat_activity) are its own, not those of an instance of the same name that a
   * test file running beside it (another worker) started on its own schema.
   */
  readonly applicationName: string;

  constructor(options: {
    url: string;
    schema: string;
    name: string;
    applyDelayMs?: number;
    /** Whose migrations it brings (fixtures/next-release.ts); default this code's. */
    release?: string;
    revocation?: boolean;
  }) {
    this.applicationName = `parley-${options.name}-${options.schema}`;
    this.child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', FIXTURE], {
      env: {
        ...process.env,
        PARLEY_PG_URL: options.url,
        PARLEY_PG_SCHEMA: options.schema,
        PARLEY_INSTANCE: options.name,
        PARLEY_APPLICATION_NAME: this.applicationName,
        PARLEY_APPLY_DELAY_MS: String(options.applyDelayMs ?? 0),
        PARLEY_RELEASE: options.release ?? 'current',
        PARLEY_REVOCATION: options.revocation === true ? '1' : '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.address = new Promise((resolve, reject) => {
      const lines = createInterface({ input: this.child.stdout as NodeJS.ReadableStream });
      lines.once('line', (line) => resolve((JSON.parse(line) as { address: string }).address));
      this.child.once('exit', (code, signal) =>
        reject(new Error(`instance ${options.name} exited (${code ?? signal}) before listening`)),
      );
    });
    this.address.catch(() => {});
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends `signal` to this child (by its pid) and waits for it to exit. */
  async stop(signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    if (!this.running) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill(signal);
    await exited;
  }
}
