import type { Command } from 'commander';
import type { Cli } from '../command-kit.js';
import { addConnectionFlags, type ConnectionFlags } from '../verbs/connection-flags.js';
import { printReply } from '../verbs/print-reply.js';
import { send, withService } from '../verbs/with-service.js';

/** `parley hello URL`: §4.1, what the service is and what it can do. */
export function registerHello(program: Command, cli: Cli): void {
  addConnectionFlags(
    program
      .command('hello')
      .description('discover what a service can do (§4.1)')
      .argument('<url>', 'parley://, parleys://, http(s):// or stdio:'),
  ).action(
    cli.act(async (url: string, flags: ConnectionFlags) =>
      withService(cli.ctx, url, flags, { hello: false }, async (open) => {
        const agent = {
          name: 'parley-cli',
          ...(open.wallet === undefined ? {} : { key: open.wallet.publicKey }),
        };
        const reply = await send(cli.ctx, open, { verb: 'HELLO', agent }, flags);
        return printReply(cli.ctx, reply, flags.json === true);
      }),
    ),
  );
}
