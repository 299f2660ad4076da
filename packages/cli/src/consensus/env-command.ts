import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsensusError, type PyValue, partySheet, pyDumps, readSpec } from '@parley/consensus';
import { runAcrossDelegates } from '@parley/consensus/net';
import type { CliContext } from '../cli-context.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import { readPyJsonFile } from '../text-file.js';
import {
  type DelegateChild,
  startDelegateChildren,
  stopDelegateChildren,
} from './delegate-children.js';
import { ENV_CALENDARS } from './env-calendars.js';
import { slotLabel } from './meeting-calendars.js';
import { reportOutcome } from './network-report.js';

export type EnvFlags = { spec?: string; receipt?: string; json?: boolean };

/**
 * `parley consensus env [PARTY...]`: the reference's `examples/run_env.py`. Every delegate runs
 * as its own OS process over HTTP on 127.0.0.1 (free ports, its own key and token, only its own
 * party and the options on the table), the coordinator decides across them with the keys pinned
 * and every verdict bound to its session, each owner checks the decision against their own
 * sheet, and the processes are ended by pid.
 */
export async function runEnvironment(
  ctx: CliContext,
  names: readonly string[],
  flags: EnvFlags,
): Promise<ExitCode> {
  const value = flags.spec === undefined ? ENV_CALENDARS : await readPyJsonFile(flags.spec);
  let spec: ReturnType<typeof readSpec>;
  try {
    spec = readSpec(value);
  } catch (error) {
    if (error instanceof ConsensusError) throw new CliError(`${flags.spec}: ${error.message}`);
    throw error;
  }
  const parties =
    names.length === 0
      ? spec.parties
      : names.map((name) => {
          const party = spec.parties.find((p) => p.owner.toLowerCase() === name.toLowerCase());
          if (party === undefined) {
            throw new CliError(
              `no party ${JSON.stringify(name)}; choose from ${spec.parties.map((p) => p.owner).join(', ')}`,
            );
          }
          return party;
        });
  const folder = mkdtempSync(join(tmpdir(), 'parley-env-'));
  let children: DelegateChild[] = [];
  try {
    if (flags.json !== true)
      ctx.err(`starting ${parties.length} delegate processes on 127.0.0.1...\n`);
    children = await startDelegateChildren(parties, spec.options, folder, (line) =>
      ctx.err(`${line}\n`),
    );
    if (flags.json !== true) {
      ctx.out(`${children.length} delegates, each its own process, over HTTP on 127.0.0.1:\n`);
      for (const c of children)
        ctx.out(`  ${c.owner.padEnd(8)} pid ${String(c.pid).padEnd(8)} ${c.url}\n`);
      ctx.out('\n');
    }
    const outcome = await runAcrossDelegates(
      children.map((c) => ({ url: c.url, token: c.token })),
      spec.options,
      {
        title: spec.title,
        roster: Object.fromEntries(children.map((c) => [c.owner, c.pubkeyHex])),
        // Every delegate here is ours: a verdict that is not bound to the session is a fault.
        requireSession: true,
      },
    ).catch((error: unknown) => {
      if (error instanceof ConsensusError)
        throw new CliError(`${flags.spec ?? 'the calendars'}: ${error.message}`);
      throw error;
    });
    const slots = spec.options.every(
      (o) => typeof o.day === 'string' && typeof o.hour === 'number',
    );
    const report = reportOutcome(outcome, {
      title: spec.title,
      json: false,
      receiptPath: flags.receipt,
      keys: 'pinned to the keys each process was started with',
      ...(slots ? { label: slotLabel } : {}),
    });
    if (!outcome.ok) {
      ctx.out(
        flags.json === true
          ? reportOutcome(outcome, { title: spec.title, json: true }).text
          : report.text,
      );
      return report.exitCode;
    }
    const decision = outcome.result.decision;
    const held = Object.fromEntries(
      parties.map((p) => [
        p.owner,
        outcome.result.transcript.verifyNonBetrayal(partySheet(p), decision),
      ]),
    );
    const honest = Object.values(held).every(Boolean);
    if (flags.json === true) {
      ctx.out(
        `${pyDumps({
          status: outcome.result.status,
          decision,
          transcript_sha256: outcome.receipt.transcript_sha256,
          protocol: outcome.protocol,
          non_betrayal: held,
          delegates: children.map((c) => ({ owner: c.owner, url: c.url, pid: c.pid })),
        } as PyValue)}\n`,
      );
    } else {
      ctx.out(report.text);
      ctx.out('\nEach owner checks the decision against their own sheet, locally:\n');
      for (const p of parties)
        ctx.out(`  ${p.owner.padEnd(8)} red lines held: ${held[p.owner] ? 'yes' : 'NO'}\n`);
    }
    return honest ? EXIT.ok : EXIT.error;
  } finally {
    await stopDelegateChildren(children);
    rmSync(folder, { recursive: true, force: true });
    if (flags.json !== true && children.length > 0) {
      ctx.err(`stopped the delegate processes (pids ${children.map((c) => c.pid).join(', ')})\n`);
    }
  }
}
