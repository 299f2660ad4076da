import { readFileSync } from 'node:fs';
import {
  type CommandOutput,
  checkPartyCommand,
  decideCommand,
  verifyReceiptCommand,
} from '@parley/consensus';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { CliError, type ExitCode } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { reasonOf } from '../home/parley-home.js';
import { readStdin } from '../standard-streams.js';

/**
 * The consensus commands of @parley/consensus: `decide`, `verify-receipt`, `check-party`. Each
 * returns its output and exit code (0 done, 1 a check failed, 2 unusable input); this wires
 * them to files and argv.
 */
export function registerConsensus(program: Command, cli: Cli): void {
  program
    .command('decide')
    .description('pick the option no party red-lines, by max-min, from a decision spec')
    .argument('<spec>', 'SPEC.json: {title, options, parties}')
    .option('--json', 'print {status, decision, transcript, transcript_sha256}')
    .action(
      cli.act(async (spec: string, flags: { json?: boolean }) =>
        emit(cli.ctx, decideCommand(await readText(spec), { json: flags.json === true })),
      ),
    );
  program
    .command('verify-receipt')
    .description('re-derive every claim of a consensus receipt')
    .argument('<file>', 'the receipt file')
    .action(
      cli.act(async (file: string) =>
        emit(cli.ctx, await verifyReceiptCommand(await readText(file))),
      ),
    );
  program
    .command('check-party')
    .description("replay one party's red lines against a decision, locally")
    .argument('<party>', 'PARTY.json: one party of a spec')
    .argument('<decision>', 'DECISION.json: the option, null, or `decide --json` output')
    .action(
      cli.act(async (party: string, decision: string) =>
        emit(cli.ctx, checkPartyCommand(await readText(party), await readText(decision))),
      ),
    );
}

function emit(ctx: CliContext, output: CommandOutput): ExitCode {
  ctx.out(output.stdout);
  ctx.err(output.stderr);
  return output.exitCode;
}

/** A file's text, or stdin's for `-`. */
async function readText(path: string): Promise<string> {
  if (path === '-') return readStdin();
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${reasonOf(error)}`);
  }
}
