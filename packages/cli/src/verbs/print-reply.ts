import {
  escapeServiceText,
  type FinalReply,
  type JsonObject,
  mergePatch,
  type Reply,
  type ReplyBody,
  renderLens,
} from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import { EXIT, type ExitCode } from '../cli-error.js';
import { commandLine } from '../shell-quote.js';

/**
 * Prints a final reply: its Lens (rendered here, not the service's own `lens`, so what is shown
 * follows from the fields) or, with `json`, the raw frame. Returns the exit code it implies:
 * ERROR is 1 (consent_required 3), CLARIFY 4 (nothing was proposed yet), anything else 0.
 */
export function printReply(ctx: CliContext, reply: FinalReply, json: boolean): ExitCode {
  if (json) ctx.out(`${JSON.stringify(reply)}\n`);
  else printLens(ctx, reply);
  if (reply.kind === 'CLARIFY') return EXIT.clarify;
  if (reply.kind !== 'ERROR') return EXIT.ok;
  return reply.code === 'consent_required' ? EXIT.consent : EXIT.error;
}

/**
 * Prints a reply's Lens on stdout. On a terminal every line is escaped as the consent screen
 * escapes service text (controls, bidi, invisible and lookalike characters), so a service cannot
 * move the cursor, repaint a line or reorder what the person reads; to a pipe it goes as rendered,
 * since a model or a program reads it there.
 */
export function printLens(ctx: CliContext, reply: Reply | ReplyBody): void {
  const lens = renderLens(reply);
  const shown = ctx.stdoutIsTty
    ? lens
        .split('\n')
        .map((line) => escapeServiceText(line))
        .join('\n')
    : lens;
  ctx.out(`${shown}\n`);
}

/**
 * §7: for an ERROR whose fixes carry params, the exact commands that apply each fix (`--params`
 * with the fix merged into the params that failed).
 */
export function printFixCommands(
  ctx: CliContext,
  reply: FinalReply,
  rerun: (params: JsonObject) => string[],
  params: JsonObject,
): void {
  if (reply.kind !== 'ERROR' || reply.fix === undefined) return;
  const fixes = reply.fix.filter((fix) => fix.params !== undefined);
  if (fixes.length === 0) return;
  ctx.err(`to apply a fix, run:\n`);
  for (const fix of fixes) {
    const merged = mergePatch(params, fix.params) as JsonObject;
    ctx.err(`  ${commandLine(rerun(merged))}\n`);
  }
}

/** §8: for a reply with elided parts, the exact EXPAND commands that fetch the rest. */
export function printExpandCommands(
  ctx: CliContext,
  reply: FinalReply,
  self: readonly string[],
  url: string,
): void {
  const more = 'more' in reply ? reply.more : undefined;
  for (const entry of more ?? []) {
    ctx.err(`the rest of ${entry.path}: ${commandLine([...self, 'expand', url, entry.handle])}\n`);
  }
}
