import type { RefusalReporter } from '@parley/transport';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RunningExample, ServiceObserver } from '../serve/run-example.js';
import type { RequestRecord } from './observed-handler.js';

/** Latency buckets (s): a local read in a millisecond up to an upstream API's 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A running service as the gauges read it at each scrape. */
export type Watched = {
  name: string;
  /** Commits left `applying` (in progress, or in doubt after a crash). */
  inDoubt(): Promise<number>;
  /** Open connections over all its transports. */
  connections(): number;
};

/**
 * The process's metrics in Prometheus text format (prom-client, a registry of its own, so
 * nothing global leaks between services or tests). Every series is labelled by `service`.
 */
export class ParleyMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'service' | 'verb' | 'outcome'>;
  readonly #commitSeconds: Histogram<'service' | 'outcome'>;
  readonly #askSeconds: Histogram<'service' | 'outcome'>;
  readonly #reserved: Counter<'service' | 'currency'>;
  readonly #refused: Counter<'service' | 'reason'>;
  readonly #watched: Watched[] = [];

  constructor() {
    const registers = [this.registry];
    this.#requests = new Counter({
      name: 'parley_requests_total',
      help: 'Requests answered, by verb and outcome (the reply kind, or the ERROR code).',
      labelNames: ['service', 'verb', 'outcome'],
      registers,
    });
    this.#commitSeconds = new Histogram({
      name: 'parley_commit_duration_seconds',
      help: 'Time from a COMMIT frame to its final reply.',
      labelNames: ['service', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#askSeconds = new Histogram({
      name: 'parley_ask_duration_seconds',
      help: 'Time from an ASK frame to its final reply.',
      labelNames: ['service', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#reserved = new Counter({
      name: 'parley_spend_reserved_total',
      help: 'Spend reserved against grants by commits this process made (§6.3), in minor units.',
      labelNames: ['service', 'currency'],
      registers,
    });
    this.#refused = new Counter({
      name: 'parley_frames_refused_total',
      help: 'Frames and connections the transport refused before the service saw them, by reason.',
      labelNames: ['service', 'reason'],
      registers,
    });
    const watched = this.#watched;
    new Gauge({
      name: 'parley_commits_in_doubt',
      help: 'Commits left applying in the store: in progress, or in doubt after a crash (parley doubt).',
      labelNames: ['service'],
      registers,
      async collect() {
        this.reset();
        for (const service of watched) {
          this.set({ service: service.name }, await service.inDoubt().catch(() => Number.NaN));
        }
      },
    });
    new Gauge({
      name: 'parley_open_connections',
      help: 'Open connections on the service transports.',
      labelNames: ['service'],
      registers,
      collect() {
        this.reset();
        for (const service of watched) this.set({ service: service.name }, service.connections());
      },
    });
  }

  /** Counts one answered request of `service`. */
  request(service: string, record: RequestRecord): void {
    const { verb, outcome } = record;
    this.#requests.inc({ service, verb, outcome });
    const seconds = record.durationMs / 1000;
    if (verb === 'COMMIT') this.#commitSeconds.observe({ service, outcome }, seconds);
    if (verb === 'ASK') this.#askSeconds.observe({ service, outcome }, seconds);
    if (record.reserved !== undefined && record.reserved.amount > 0) {
      this.#reserved.inc({ service, currency: record.reserved.currency }, record.reserved.amount);
    }
  }

  /** The RefusalReporter for `service`'s transports. */
  refusals(service: string): RefusalReporter {
    return (reason) => this.#refused.inc({ service, reason });
  }

  /** The observer that feeds these metrics (RunOptions.observe). */
  observer(): ServiceObserver {
    return {
      request: (service, record) => this.request(service, record),
      refusals: (service) => this.refusals(service),
    };
  }

  /** Adds a running service to the gauges. */
  watch(service: Watched): void {
    this.#watched.push(service);
  }

  /** The exposition text and its content type. */
  async exposition(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}

/** A running service as the gauges read it. */
export function watchedOf(running: RunningExample): Watched {
  return {
    name: running.name,
    inDoubt: async () => (await running.service.listInDoubt()).length,
    connections: () => running.servers.reduce((sum, server) => sum + server.connections, 0),
  };
}
