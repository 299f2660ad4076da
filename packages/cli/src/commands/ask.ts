import type { Command } from 'commander';
import type { Cli } from '../command-kit.js';
import { addConnectionFlags, type ConnectionFlags } from '../verbs/connection-flags.js';
import {
  capabilitySchema,
  readParamArgs,
  textParamHint,
  typedParams,
} from '../verbs/params-args.js';
import { printExpandCommands, printFixCommands, printReply } from '../verbs/print-reply.js';
import { send, withService } from '../verbs/with-service.js';

type AskFlags = ConnectionFlags & { params?: string };

/** `parley ask URL CAPABILITY [key=value | key:=JSON ...]`: §4.2, a read without side effects. */
export function registerAsk(program: Command, cli: Cli): void {
  addConnectionFlags(
    program
      .command('ask')
      .description('read without side effects (§4.2)')
      .argument('<url>', 'the service')
      .argument('<capability>', 'an ask capability, e.g. calendar.find')
      .argument('[params...]', 'key=text or key:=JSON')
      .option('--params <json>', 'the params as one JSON object (key=value pairs go on top)'),
  ).action(
    cli.act(async (url: string, capability: string, pairs: string[], flags: AskFlags) => {
      const args = readParamArgs(pairs, flags.params);
      return withService(cli.ctx, url, flags, {}, async (open) => {
        const schema = open.brief && capabilitySchema(open.brief, capability);
        const params = typedParams(args, schema);
        const reply = await send(cli.ctx, open, { verb: 'ASK', capability, params }, flags);
        const code = printReply(cli.ctx, reply, flags.json === true);
        const textHint = textParamHint(reply, params, args, schema);
        if (textHint !== undefined) cli.ctx.err(`note: ${textHint}\n`);
        printExpandCommands(cli.ctx, reply, cli.self, url);
        printFixCommands(
          cli.ctx,
          reply,
          (fixed) => [...cli.self, 'ask', url, capability, '--params', JSON.stringify(fixed)],
          params,
        );
        return code;
      });
    }),
  );
}
