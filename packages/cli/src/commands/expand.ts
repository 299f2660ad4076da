import { isPlainObject, type Proposal } from '@parley/protocol';
import type { Command } from 'commander';
import type { Cli } from '../command-kit.js';
import { hashCovers, recordProposals } from '../home/proposal-file.js';
import { addConnectionFlags, type ConnectionFlags } from '../verbs/connection-flags.js';
import { printExpandCommands, printReply } from '../verbs/print-reply.js';
import { send, withService } from '../verbs/with-service.js';

/** `parley expand URL HANDLE`: §4.6, the next slice of an elided value. */
export function registerExpand(program: Command, cli: Cli): void {
  addConnectionFlags(
    program
      .command('expand')
      .description('get the rest of an elided reply (§4.6, §8)')
      .argument('<url>', 'the service')
      .argument('<handle>', 'the handle from a "… more at" line'),
  ).action(
    cli.act(async (url: string, handle: string, flags: ConnectionFlags) =>
      withService(cli.ctx, url, flags, {}, async (open) => {
        const reply = await send(cli.ctx, open, { verb: 'EXPAND', handle }, flags);
        if (reply.kind === 'ANSWER') {
          // The rest of a PROPOSALS list (§8) is remembered like the first part.
          const items = isPlainObject(reply.data) ? reply.data.items : undefined;
          if (Array.isArray(items) && items.length > 0 && items.every(looksLikeProposal)) {
            const proposals = (items as unknown as Proposal[]).filter(hashCovers);
            recordProposals(cli.ctx.home, open.service, proposals, cli.ctx.now());
          }
        }
        const code = printReply(cli.ctx, reply, flags.json === true);
        printExpandCommands(cli.ctx, reply, cli.self, url);
        return code;
      }),
    ),
  );
}

function looksLikeProposal(item: unknown): boolean {
  return (
    isPlainObject(item) &&
    typeof item.id === 'string' &&
    typeof item.hash === 'string' &&
    Array.isArray(item.effects)
  );
}
