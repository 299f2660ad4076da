import { randomBytes } from 'node:crypto';
import { type PreferenceSheet, type PyObject, pyDumps } from '@parley/consensus';
import {
  Delegate,
  type DelegateServer,
  runAcrossDelegates,
  serveDelegate,
} from '@parley/consensus/net';
import { generateKeyPair } from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import { EXIT, type ExitCode } from '../cli-error.js';
import { dansCalendar, MEETING_SLOTS, meetingCalendars, slotLabel } from './meeting-calendars.js';
import { reportOutcome } from './network-report.js';

/** What one act of the meeting comes to, for --json. */
interface Act {
  status: string;
  decision: PyObject | null;
  transcript_sha256: string | null;
  protocol: string | null;
  non_betrayal: Record<string, boolean>;
}

/**
 * `parley consensus meeting`: three delegates with private calendars pick a meeting slot over
 * HTTP on 127.0.0.1, then each owner checks the decision against their own calendar; then Dan
 * joins, and the honest answer is a deadlock. Every delegate is a real HTTP server in this
 * process, with its own key and token; the coordinator only ever sees masked verdicts.
 */
export async function runMeeting(ctx: CliContext, json: boolean): Promise<ExitCode> {
  const acts: Act[] = [];
  const text: string[] = [];
  const calendars = meetingCalendars();
  const scenes: [string, PreferenceSheet<PyObject>[]][] = [
    [
      'Three people let their delegates pick a meeting slot. Each calendar stays in its delegate.',
      calendars,
    ],
    [
      "Dan joins. His red line is Fridays only, and Bob's is never on a Friday.",
      [...calendars, dansCalendar()],
    ],
  ];
  for (const [scene, sheets] of scenes) {
    const act = await meet(scene, sheets, json);
    acts.push(act.summary);
    text.push(act.text);
    if (act.exitCode !== EXIT.ok) {
      ctx.out(json ? act.text : text.join('\n'));
      return act.exitCode;
    }
  }
  ctx.out(json ? `${pyDumps(acts as never)}\n` : text.join(`\n${'-'.repeat(64)}\n`));
  return EXIT.ok;
}

async function meet(
  scene: string,
  sheets: readonly PreferenceSheet<PyObject>[],
  json: boolean,
): Promise<{ summary: Act; text: string; exitCode: ExitCode }> {
  const token = randomBytes(16).toString('hex');
  const servers: DelegateServer[] = [];
  try {
    for (const sheet of sheets) {
      servers.push(
        await serveDelegate(
          new Delegate(sheet, { key: await generateKeyPair(), options: MEETING_SLOTS }),
          { token },
        ),
      );
    }
    const outcome = await runAcrossDelegates(
      servers.map((s) => ({ url: s.url, token })),
      MEETING_SLOTS,
      { title: 'meeting', requireSession: true },
    );
    const report = reportOutcome(outcome, { title: scene, json, label: slotLabel });
    if (!outcome.ok) {
      return { summary: emptyAct(), text: report.text, exitCode: report.exitCode };
    }
    const decision = outcome.result.decision;
    const held = Object.fromEntries(
      sheets.map((s) => [s.owner, outcome.result.transcript.verifyNonBetrayal(s, decision)]),
    );
    const checks = [
      '',
      'Each owner checks the decision against their own calendar, locally:',
      ...sheets.map(
        (s) => `  ${s.owner.padEnd(5)} red lines held: ${held[s.owner] ? 'yes' : 'NO'}`,
      ),
    ];
    return {
      summary: {
        status: outcome.result.status,
        decision,
        transcript_sha256: outcome.receipt.transcript_sha256,
        protocol: outcome.protocol,
        non_betrayal: held,
      },
      text: `${report.text}${checks.join('\n')}\n`,
      exitCode: Object.values(held).every(Boolean) ? EXIT.ok : EXIT.error,
    };
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

function emptyAct(): Act {
  return {
    status: 'failed',
    decision: null,
    transcript_sha256: null,
    protocol: null,
    non_betrayal: {},
  };
}
