import type { Command } from 'commander';
import type { Cli } from '../command-kit.js';
import { explainUnauthorized } from '../verbs/acting-as.js';
import { addConnectionFlags, type ConnectionFlags } from '../verbs/connection-flags.js';
import { printReply } from '../verbs/print-reply.js';
import { send, withService } from '../verbs/with-service.js';

/** `parley undo URL RECEIPT_ID`: §4.5, reverses a receipt within its undo window. */
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
        explainUnauthorized(cli.ctx, open, reply);
        return code;
      }),
    ),
  );
}
