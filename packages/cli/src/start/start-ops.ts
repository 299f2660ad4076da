import type { Command } from 'commander';
import { ParleyMetrics, watchedOf } from '../ops/metrics.js';
import { listenMetrics } from '../ops/metrics-server.js';
import { bothObservers } from '../ops/observers.js';
import { type LogFormat, parseLogFormat, type ServiceLog, serviceLog } from '../ops/request-log.js';
import { parseHostPort } from '../serve/host-port.js';
import type { RunningExample, ServiceObserver } from '../serve/run-example.js';

/** `--log-format` and `--metrics`, as `parley start` takes them (docs/operating.md). */
export type OpsFlags = { logFormat: LogFormat; metrics?: string };

export function addOpsFlags(command: Command): Command {
  return command
    .option(
      '--log-format <format>',
      'text, or json (one pino object a line): one line per request on stderr',
      parseLogFormat,
      'text',
    )
    .option('--metrics <host:port>', 'serve Prometheus metrics at http://HOST:PORT/metrics');
}

/** The logs and metrics of `parley start`'s services. */
export type StartOps = {
  log: ServiceLog;
  observe: ServiceObserver;
  /** Serves the metrics of `running` if --metrics was given: what to close, and where it is. */
  serveMetrics(
    running: readonly RunningExample[],
  ): Promise<{ address: string; close(): Promise<void> } | undefined>;
};

export function startOps(flags: OpsFlags, write: (line: string) => void): StartOps {
  const at = flags.metrics === undefined ? undefined : parseHostPort(flags.metrics, '--metrics');
  const metrics = at === undefined ? undefined : new ParleyMetrics();
  const log = serviceLog(flags.logFormat, write);
  return {
    log,
    observe: bothObservers([
      log.observer(),
      ...(metrics === undefined ? [] : [metrics.observer()]),
    ]),
    async serveMetrics(running) {
      if (metrics === undefined || at === undefined) return undefined;
      for (const service of running) metrics.watch(watchedOf(service));
      return listenMetrics(metrics, at.host, at.port);
    },
  };
}
