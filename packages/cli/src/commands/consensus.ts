import {
  type CommandOutput,
  checkPartyCommand,
  decideCommand,
  type VerifyReceiptOptions,
  verifyReceiptCommand,
} from '@parley/consensus';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import type { ExitCode } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { type DecideFlags, specText } from '../consensus/decide-parties.js';
import { readRosterFile } from '../consensus/roster-file.js';
import { readTextFile } from '../text-file.js';
import { verifyServiceReceipt } from './verify-service-receipt.js';

/**
 * The consensus commands of @parley/consensus: `decide`, `verify-receipt`, `check-party`. Each
 * returns its output and exit code (0 done, 1 a check failed, 2 unusable input); this wires
 * them to files and argv.
 */
export function registerConsensus(program: Command, cli: Cli): void {
  program
    .command('decide')
    .description('pick the option no party red-lines, by max-min, from a decision spec')
    .argument('[spec]', 'SPEC.json: {title, options, parties}')
    .option('--options <file>', 'the options, when the parties come from party files')
    .option(
      '--party-file <file>',
      'add this party file (consensus interview wrote it); repeat for each party',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--json', 'print {status, decision, transcript, transcript_sha256}')
    .action(
      cli.act(async (spec: string | undefined, flags: DecideFlags) =>
        emit(cli.ctx, decideCommand(await specText(spec, flags), { json: flags.json === true })),
      ),
    );
  program
    .command('verify-receipt')
    .description(
      "re-derive every claim of a consensus receipt, or with --service check a Parley receipt's signature",
    )
    .argument('<file>', 'the receipt file')
    .option('--participants <names>', 'the owners you know took part, comma-separated')
    .option(
      '--roster <file>',
      'the owner -> key pins you trust: {"Ana": "ed25519:…", "Bob": {"key": …, "require_session": true}}',
    )
    .option(
      '--require-session',
      "refuse any owner's verdicts that are not verdict/0.2 in a session",
    )
    .option(
      '--service <key|url>',
      'a Parley RECEIPT instead (docs/extensions.md §E1): check its signature against this service key, or the key the service at this URL announces',
    )
    .action(
      cli.act(async (file: string, flags: VerifyFlags) => {
        if (flags.service !== undefined) {
          return verifyServiceReceipt(cli.ctx, file, await readTextFile(file), flags.service, {});
        }
        return emit(
          cli.ctx,
          await verifyReceiptCommand(await readTextFile(file), await verifyOptions(flags)),
        );
      }),
    );
  program
    .command('check-party')
    .description("replay one party's red lines against a decision, locally")
    .argument('<party>', 'PARTY.json: one party of a spec')
    .argument('<decision>', 'DECISION.json: the option, null, or `decide --json` output')
    .action(
      cli.act(async (party: string, decision: string) =>
        emit(cli.ctx, checkPartyCommand(await readTextFile(party), await readTextFile(decision))),
      ),
    );
}

type VerifyFlags = {
  participants?: string;
  roster?: string;
  requireSession?: boolean;
  service?: string;
};

/** What verify-receipt checks against: your participants, your roster and its requirements. */
async function verifyOptions(flags: VerifyFlags): Promise<VerifyReceiptOptions> {
  const roster = flags.roster === undefined ? undefined : await readRosterFile(flags.roster);
  const required = flags.requireSession === true ? true : (roster?.requireSession ?? []);
  return {
    ...(flags.participants === undefined
      ? {}
      : { expectedOwners: flags.participants.split(',').map((o) => o.trim()) }),
    ...(roster === undefined ? {} : { roster: roster.keys }),
    ...(required === true || required.length > 0 ? { requireSession: required } : {}),
  };
}

/** Prints a @parley/consensus command's output and returns its exit code. */
export function emit(ctx: CliContext, output: CommandOutput): ExitCode {
  ctx.out(output.stdout);
  ctx.err(output.stderr);
  return output.exitCode;
}
