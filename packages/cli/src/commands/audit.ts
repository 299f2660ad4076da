import {
  type AuditRow,
  type AuditVerdict,
  escapeServiceText,
  type JsonValue,
  verifyAuditChain,
} from '@parley/protocol';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { serviceName } from '../serve/service-name.js';
import { openServiceStore, redactedStore } from '../serve/service-store.js';
import { type StoreFlags, storeLocation, storeTarget } from '../serve/store-location.js';

type AuditFlags = StoreFlags & { since?: string; json?: boolean; verify?: boolean };

/**
 * `parley audit SERVICE [DOCUMENT]`: docs/extensions.md §E3, the audit trail a service's store
 * keeps (every commit, undo, consent used, revocation and settlement, hash-chained), read from
 * the store directly as `parley doubt` does; with `--verify`, the chain recomputed.
 */
export function registerAudit(program: Command, cli: Cli): void {
  storeTarget(
    program
      .command('audit')
      .description("print the audit trail of a service's store, or verify its chain (§E3)"),
  )
    .option('--since <time>', 'only rows from this time on: Unix seconds or an ISO 8601 time')
    .option('--json', 'print one JSON row per line (NDJSON); with --verify, the verdict as JSON')
    .option(
      '--verify',
      'recompute the whole chain and name the first row changed, removed or moved',
    )
    .action(
      cli.act(async (target: string, document: string | undefined, flags: AuditFlags) => {
        const { ctx } = cli;
        const since = flags.since === undefined ? undefined : sinceOf(flags.since);
        const name = serviceName(target, document === undefined ? [] : [document], 'audit');
        const location = storeLocation(ctx, name, flags);
        const store = await openServiceStore(name, location, true);
        try {
          if (flags.verify === true) {
            const trail = await store.readAudit();
            return printVerdict(ctx, verifyAuditChain(trail.rows, trail.head), flags);
          }
          const { rows } = await store.readAudit(since);
          if (flags.json === true) {
            ctx.out(rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
          } else if (rows.length === 0) {
            ctx.out(`no audit rows in ${redactedStore(location)}\n`);
          } else {
            for (const row of rows) ctx.out(`${auditLine(row, ctx.stdoutIsTty)}\n`);
          }
          return EXIT.ok;
        } finally {
          await store.close();
        }
      }),
    );
}

/** --since as Unix seconds: digits are seconds, anything else an ISO 8601 time. */
function sinceOf(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new CliError(
      `--since ${text} is not a time: give Unix seconds or an ISO 8601 time (2026-12-01T09:00Z)`,
    );
  }
  return Math.floor(ms / 1000);
}

/** One row on one line: seq, time, kind, then the detail's members as name=value. */
function auditLine(row: AuditRow, tty: boolean): string {
  const at = new Date(row.at * 1000).toISOString().replace('.000Z', 'Z');
  const detail = row.detail;
  const members =
    detail !== null && typeof detail === 'object' && !Array.isArray(detail)
      ? Object.entries(detail).map(([key, value]) => `${key}=${shownValue(value, tty)}`)
      : [shownValue(detail, tty)];
  return [String(row.seq), at, row.kind.padEnd(10), ...members].join(' ').trimEnd();
}

/**
 * A string as it is, quoted as JSON when it holds a space or a character JSON escapes (a row stays
 * one line), else JSON; escaped on a terminal too (a summary is the service's text, §9).
 */
function shownValue(value: JsonValue | undefined, tty: boolean): string {
  let text = JSON.stringify(value ?? null);
  if (typeof value === 'string' && !/\s/.test(value) && text === `"${value}"`) text = value;
  return tty ? escapeServiceText(text) : text;
}

function printVerdict(ctx: CliContext, verdict: AuditVerdict, flags: AuditFlags): ExitCode {
  if (flags.json === true) ctx.out(`${JSON.stringify(verdict)}\n`);
  else if (verdict.ok) {
    ctx.out(
      verdict.count === 0
        ? 'the audit trail is empty\n'
        : `${verdict.count} rows verified; head row ${verdict.head.seq} ${verdict.head.hash}\n`,
    );
  } else {
    ctx.out(`verification failed at row ${verdict.seq} (${verdict.problem}): ${verdict.reason}\n`);
  }
  return verdict.ok ? EXIT.ok : EXIT.error;
}
