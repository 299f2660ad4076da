import { escapeServiceText, type FinalReply } from '@parley/protocol';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { readProposals } from '../home/proposal-file.js';
import { readReceipt } from '../home/receipt-file.js';
import { explainUnauthorized } from '../verbs/acting-as.js';
import { addConnectionFlags, type ConnectionFlags } from '../verbs/connection-flags.js';
import { printReply } from '../verbs/print-reply.js';
import { undoOutcomeLines } from '../verbs/undo-outcome-lines.js';
import { send, withService } from '../verbs/with-service.js';

/**
 * `parley undo URL RECEIPT_ID`: §4.5, reverses a receipt within its undo window, then says what
 * the undo left as it was (a sent message, a charge refunded rather than erased): after the Lens
 * on stdout, or with --json (stdout is the raw frame) on stderr.
 */
export function registerUndo(program: Command, cli: Cli): void {
  addConnectionFlags(
    program
      .command('undo')
      .description('reverse a receipt within its undo window (§4.5)')
      .argument('<url>', 'the service')
      .argument('<receipt>', 'the receipt id, as `parley commit` printed it'),
  ).action(
    cli.act(async (url: string, receipt: string, flags: ConnectionFlags) =>
      withService(cli.ctx, url, flags, { needWallet: true }, async (open) => {
        const reply = await send(cli.ctx, open, { verb: 'UNDO', receipt }, flags);
        const code = printReply(cli.ctx, reply, flags.json === true);
        printUndoOutcome(cli.ctx, open.service, reply, flags.json === true);
        explainUnauthorized(cli.ctx, open, reply);
        return code;
      }),
    ),
  );
}

/** §4.5: the undo's outcome per effect, against what this home kept of the original. */
function printUndoOutcome(
  ctx: CliContext,
  service: string,
  reply: FinalReply,
  json: boolean,
): void {
  if (reply.kind !== 'RECEIPT' || reply.receipt.undoes === undefined) return;
  const reversal = reply.receipt;
  let original: Parameters<typeof undoOutcomeLines>[1];
  try {
    original =
      readReceipt(ctx.home, service, reversal.undoes as string) ??
      readProposals(ctx.home, service).get(reversal.proposal);
  } catch (error) {
    // The undo is done; a damaged record only means the outcome cannot be compared here.
    if (!(error instanceof CliError)) throw error;
    ctx.err(`warning: ${error.message}\n`);
  }
  const lines = undoOutcomeLines(reversal, original);
  // As printLens does: service text reaches a terminal escaped, a pipe as it is.
  if (json) ctx.err(`${lines.map((line) => escapeServiceText(line)).join('\n')}\n`);
  else if (ctx.stdoutIsTty) ctx.out(`${lines.map((line) => escapeServiceText(line)).join('\n')}\n`);
  else ctx.out(`${lines.join('\n')}\n`);
}
