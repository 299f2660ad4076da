import { ClientError, ConsentMismatchError } from '@parley/client';
import { GrantFormatError, ParleyError } from '@parley/protocol';
import { TransportError } from '@parley/transport';
import { Command, CommanderError } from 'commander';
import { type CliContext, processContext, selfCommand } from './cli-context.js';
import { CliError, EXIT, type ExitCode } from './cli-error.js';
import type { Cli } from './command-kit.js';
import { familiesFor } from './command-table.js';
import { dashedIdHint } from './dashed-id.js';
import { printLens } from './verbs/print-reply.js';

const VERSION = '0.1.0';

/** The exit statuses (EXIT in cli-error.ts), for scripts; the package README has the same table. */
const EXIT_HELP = `
Exit status:
  0  done: a reply that is not ERROR or CLARIFY, a check that passed, an approval signed
  1  the service answered ERROR; a check failed; the person answered no
  2  a local failure: usage, bad URL, unreachable host, files, no terminal for approve
  3  commit needs the principal's consent: parley approve PROPOSAL, then commit again
  4  the service asked a question (CLARIFY): answer with --pick N or a printed command
`;

/**
 * Runs the CLI on `argv` (as process.argv: node, script, args…) and resolves with the exit code.
 */
export async function runCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  ctx: CliContext = processContext(env),
): Promise<ExitCode> {
  let exitCode: ExitCode = EXIT.ok;
  const cli: Cli = {
    ctx,
    self: selfCommand(env),
    act:
      (action) =>
      async (...args) => {
        exitCode = await action(...args);
      },
  };
  const program = new Command('parley')
    .description(
      'Parley from the command line: keys, grants, consent, the verbs, example services.',
    )
    .version(VERSION)
    // A command's own options come after its name: `consensus confirm --version V` is the draft's.
    .enablePositionalOptions()
    .showHelpAfterError('(run parley --help for the commands)')
    .addHelpText('after', EXIT_HELP)
    .exitOverride()
    .configureOutput({ writeOut: ctx.out, writeErr: ctx.err });
  for (const family of familiesFor(argv)) (await family.load())(program, cli, env);
  for (const command of program.commands)
    command.exitOverride().configureOutput({ writeOut: ctx.out, writeErr: ctx.err });
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    return report(ctx, error, env, argv.slice(2));
  }
}

/** One clear sentence on stderr and the exit code; a stack only for bugs, with PARLEY_DEBUG. */
function report(
  ctx: CliContext,
  error: unknown,
  env: NodeJS.ProcessEnv,
  args: readonly string[],
): ExitCode {
  if (error instanceof CommanderError) {
    // Commander has printed its own message (or the help).
    const hint = error.code === 'commander.unknownOption' ? dashedIdHint(args) : undefined;
    if (hint !== undefined) ctx.err(`parley: ${hint}\n`);
    return error.exitCode === 0 ? EXIT.ok : EXIT.local;
  }
  if (error instanceof CliError) {
    ctx.err(`parley: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof ParleyError) {
    printLens(ctx, { kind: 'ERROR', ...error.toBody() });
    return error.code === 'consent_required' ? EXIT.consent : EXIT.error;
  }
  if (error instanceof ClientError && error.reason === 'bad_receipt_signature') {
    // docs/extensions.md §E1: reported as a failed check, never as done.
    ctx.err(`✗ ${error.message}; it is not recorded as done\n`);
    return EXIT.error;
  }
  if (
    error instanceof TransportError ||
    error instanceof ClientError ||
    error instanceof ConsentMismatchError ||
    error instanceof GrantFormatError
  ) {
    ctx.err(`parley: ${error.message}\n`);
    return EXIT.local;
  }
  const message = error instanceof Error ? error.message : String(error);
  ctx.err(`parley: unexpected failure: ${message}\n`);
  if (env.PARLEY_DEBUG !== undefined && error instanceof Error) ctx.err(`${error.stack ?? ''}\n`);
  else ctx.err('(set PARLEY_DEBUG=1 to see where)\n');
  return EXIT.local;
}
