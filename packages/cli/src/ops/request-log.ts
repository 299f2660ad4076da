import { pino } from 'pino';
import { CliError } from '../cli-error.js';
import type { ServiceObserver } from '../serve/run-service.js';
import type { RequestRecord } from './observed-handler.js';
import { pacedBatch } from './paced-batch.js';

/** `--log-format`: lines for a person, or one JSON object a line for a log pipeline. */
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export function parseLogFormat(text: string): LogFormat {
  if ((LOG_FORMATS as readonly string[]).includes(text)) return text as LogFormat;
  throw new CliError(`--log-format takes text or json (got "${text.slice(0, 40)}")`);
}

/**
 * Field names that must never reach a log, whatever a future caller passes: pino replaces their
 * values. The records logged hold none of them (RequestRecord is built from a frame's id, verb
 * and capability only); this is the second line of defence.
 */
const REDACTED = [
  'grant',
  'grants',
  'proof',
  'consent',
  'token',
  'key',
  'secret',
  'authorization',
  'credential',
  'params',
  'frame',
  'reply',
];

/** The service's log: one line per request, and its other messages, in `format`. */
export type ServiceLog = {
  /** RunOptions.log: a service's message (errors it reports, never a peer's data). */
  message(line: string): void;
  /** What the command itself says: whom it trusts, that it stopped. */
  info(line: string): void;
  /** RunOptions.observe: one line per answered request. */
  observer(): ServiceObserver;
};

const round = (ms: number): number => Math.round(ms * 10) / 10;

/** A request as a person reads it: `[shop] COMMIT shop.order → receipt in 12.3 ms (id c1, …)`. */
function textLine(service: string, record: RequestRecord): string {
  const capability = record.capability === undefined ? '' : ` ${record.capability}`;
  const peer = record.peer === undefined ? '' : `, ${record.peer}`;
  return `[${service}] ${record.verb}${capability} → ${record.outcome} in ${round(record.durationMs)} ms (id ${JSON.stringify(record.id)}${peer})`;
}

/**
 * Writes to `write` (stderr: with --stdio, stdout carries frames). `json`: pino, one object a
 * line with `time`, `level`, `msg`, and for a request `service`, `id`, `verb`, `capability`,
 * `outcome`, `durationMs`, `peer`. `text`: the same facts as a sentence. The lines of one turn of
 * the event loop, or of a busy log's pace, reach `write` together, in order (paced-batch.ts).
 */
export function serviceLog(format: LogFormat, writeNow: (line: string) => void): ServiceLog {
  const { write } = pacedBatch(writeNow);
  if (format === 'text') {
    return {
      message: (line) => write(`${line}\n`),
      info: (line) => write(`${line}\n`),
      observer: () => ({ request: (service, record) => write(`${textLine(service, record)}\n`) }),
    };
  }
  const logger = pino(
    {
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: [...REDACTED, ...REDACTED.map((name) => `*.${name}`)],
        censor: '[redacted]',
      },
    },
    { write },
  );
  return {
    message: (line) => logger.warn(line),
    info: (line) => logger.info(line),
    observer: () => ({
      request: (service, record) => {
        const { reserved: _reserved, durationMs, ...facts } = record;
        logger.info({ service, ...facts, durationMs: round(durationMs) }, 'request');
      },
    }),
  };
}
