import {
  escapeServiceText,
  type FinalReply,
  type JsonObject,
  mergePatch,
  type Proposal,
} from '@parley/protocol';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { hashCovers, recordProposals } from '../home/proposal-file.js';
import { recordReceipt } from '../home/receipt-file.js';
import { commandLine } from '../shell-quote.js';
import { explainUnauthorized, noteIntentGrants } from '../verbs/acting-as.js';
import {
  addConnectionFlags,
  type ConnectionFlags,
  positiveInteger,
} from '../verbs/connection-flags.js';
import {
  capabilitySchema,
  readParamArgs,
  textParamHint,
  typedParams,
} from '../verbs/params-args.js';
import { printExpandCommands, printFixCommands, printReply } from '../verbs/print-reply.js';
import { send, withService } from '../verbs/with-service.js';

type IntentFlags = ConnectionFlags & {
  params?: string;
  goal?: string;
  pick?: string;
  auto?: boolean;
};

/**
 * `parley intent URL CAPABILITY [key=value | key:=JSON ...]`: §4.3, proposals back and nothing
 * changed. Every proposal received is recorded in PARLEY_HOME for `commit` and `approve` (§6.6).
 * A CLARIFY is answered with `--pick N` (option N's params merged, §4.3) or the printed commands;
 * unanswered, it exits 4. `key=value` pairs are typed by the capability's schema in the BRIEF.
 */
export function registerIntent(program: Command, cli: Cli): void {
  addConnectionFlags(
    program
      .command('intent')
      .description('say what you want and get proposals back; nothing changes (§4.3)')
      .argument('<url>', 'the service')
      .argument('<capability>', 'an intent capability, e.g. calendar.reschedule')
      .argument('[params...]', 'key=text or key:=JSON')
      .option('--params <json>', 'the params as one JSON object (key=value pairs go on top)')
      .option('--goal <text>', 'the purpose in plain words')
      .option('--pick <n>', 'if the service asks which one (CLARIFY), answer option n')
      .option('--auto', 'let the grant commit the first proposal at once if it allows (§4.3.1)'),
  ).action(
    cli.act(async (url: string, capability: string, pairs: string[], flags: IntentFlags) => {
      const args = readParamArgs(pairs, flags.params);
      const pick = positiveInteger(flags.pick, '--pick');
      const rerun = (next: JsonObject): string[] => [
        ...cli.self,
        'intent',
        url,
        capability,
        '--params',
        JSON.stringify(next),
      ];
      return withService(cli.ctx, url, flags, {}, async (open) => {
        const schema = open.brief && capabilitySchema(open.brief, capability);
        let params = typedParams(args, schema);
        const granted = noteIntentGrants(cli, open, capability);
        const draft = (p: JsonObject) => ({
          verb: 'INTENT' as const,
          capability,
          params: p,
          ...(flags.goal === undefined ? {} : { goal: flags.goal }),
          ...(flags.auto === true ? { auto: true } : {}),
        });
        let reply = await send(cli.ctx, open, draft(params), flags);
        if (reply.kind === 'CLARIFY' && pick !== undefined) {
          const option = reply.options[pick - 1];
          if (option === undefined) {
            throw new CliError(`--pick ${pick}: the question has ${reply.options.length} options`);
          }
          cli.ctx.err(
            `? ${escapeServiceText(reply.question)} → ${pick}. ${escapeServiceText(option.label)}\n`,
          );
          params = mergePatch(params, option.params) as JsonObject;
          reply = await send(cli.ctx, open, draft(params), flags);
        }
        if (reply.kind === 'PROPOSALS') record(cli.ctx, open.service, reply.proposals);
        // §4.3.1: an auto commit's receipt, kept for `parley undo` as a commit's is.
        if (reply.kind === 'RECEIPT') {
          recordReceipt(cli.ctx.home, open.service, reply.receipt, cli.ctx.now());
        }
        const code = printReply(cli.ctx, reply, flags.json === true);
        explainUnauthorized(cli.ctx, open, reply);
        hint(cli, url, reply, params, rerun, granted);
        const textHint = textParamHint(reply, params, args, schema);
        if (textHint !== undefined) cli.ctx.err(`note: ${textHint}\n`);
        return code;
      });
    }),
  );
}

/** §6.6: remembers what the service proposed, refusing proposals whose hash does not cover them. */
function record(ctx: CliContext, service: string, proposals: readonly Proposal[]): void {
  const covered = proposals.filter(hashCovers);
  for (const proposal of proposals) {
    if (!covered.includes(proposal)) {
      ctx.err(
        `warning: proposal ${escapeServiceText(String(proposal.id))} has a hash that does not cover its contents (§5.1); it is not recorded and cannot be committed from here\n`,
      );
    }
  }
  recordProposals(ctx.home, service, covered, ctx.now());
}

/** The follow-up commands, on stderr so stdout stays the Lens. */
function hint(
  cli: Cli,
  url: string,
  reply: FinalReply,
  params: JsonObject,
  rerun: (params: JsonObject) => string[],
  granted: boolean,
): void {
  if (reply.kind === 'CLARIFY') {
    cli.ctx.err('answer with --pick N, or run one of:\n');
    reply.options.forEach((option, index) => {
      const merged = mergePatch(params, option.params) as JsonObject;
      cli.ctx.err(`  ${index + 1}: ${commandLine(rerun(merged))}\n`);
    });
  } else if (reply.kind === 'PROPOSALS' && !granted) {
    cli.ctx.err(
      'these proposals cannot be committed: the INTENT carried no grant (see the note above); run it again once the agent holds one\n',
    );
  } else if (reply.kind === 'PROPOSALS') {
    const first = reply.proposals[0];
    if (first !== undefined) {
      cli.ctx.err(`commit one with: ${commandLine([...cli.self, 'commit', url, first.id])}\n`);
    }
  } else if (reply.kind === 'RECEIPT' && reply.receipt.undo !== null) {
    cli.ctx.err(`undo with: ${commandLine([...cli.self, 'undo', url, reply.receipt.id])}\n`);
  }
  printFixCommands(cli.ctx, reply, rerun, params);
  printExpandCommands(cli.ctx, reply, cli.self, url);
}
