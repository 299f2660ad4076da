import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS } from '@parley/consensus/net';
import type { Command } from 'commander';
import type { Cli } from '../command-kit.js';
import { type DelegateFlags, runDelegate } from '../consensus/delegate-command.js';
import { type EnvFlags, runEnvironment } from '../consensus/env-command.js';
import { runMeeting } from '../consensus/meeting-command.js';
import { DEFAULT_FAILED_RATE, DEFAULT_RATE } from '../consensus/rate-flag.js';
import { type RatifyFlags, runRatify } from '../consensus/ratify-command.js';
import { type RosterFlags, runRoster } from '../consensus/roster-command.js';
import { type RunFlags, runDecision } from '../consensus/run-command.js';
import { runSeal, type SealFlags } from '../consensus/seal-command.js';
import { DEFAULT_TOKEN_ENV } from '../consensus/token-env.js';

/**
 * `parley consensus …`: consensus across processes. Each owner's delegate serves their private
 * sheet over HTTP with parley-consensus's wire; the coordinator decides across delegates; each
 * person ratifies at their own terminal; the answers are sealed into the receipt.
 */
export function registerConsensusNetwork(program: Command, cli: Cli, env: NodeJS.ProcessEnv): void {
  const group = program
    .command('consensus')
    .description(
      'decide across delegates over HTTP: delegate, roster, run, meeting, env, ratify, seal',
    );
  group
    .command('delegate')
    .description("serve one owner's private sheet over HTTP (/card, /consider), until Ctrl-C")
    .argument('<spec>', "a decision spec (pick the party with --party) or one party's file")
    .option('--party <name>', 'the owner whose party to serve')
    .option('--host <host>', 'where to listen', '127.0.0.1')
    .option('--port <n>', 'the port (0 picks a free one and prints it)', '0')
    .option(
      '--token-env <var>',
      `require the bearer token in this variable (default ${DEFAULT_TOKEN_ENV} if set)`,
    )
    .option(
      '--rate <n/s>',
      'at most N answers every S seconds to the token holder, from all its addresses, or off',
      DEFAULT_RATE,
    )
    .option(
      '--failed-rate <n/s>',
      'at most N answers every S seconds to a missing or wrong token, from all addresses, or off',
      DEFAULT_FAILED_RATE,
    )
    .option(
      '--key <file>',
      'sign with this key file (default: PARLEY_HOME/principal.key, or a fresh key)',
    )
    .option('--unsigned', 'sign nothing (as the reference bot without an identity)')
    .option('--options <file>', 'the options on the table: answer about these and no others')
    .option(
      '--sessionless',
      'also answer outside a session (verdict/0.1, as a Python coordinator asks)',
    )
    .option('--roster-out <file>', 'write your roster entry (owner, key, sessions required)')
    .option(
      '--token-out <file>',
      'write {URL: token} (mode 0600) for the coordinator; makes a token if none is set',
    )
    .option('--url <url>', 'the address the coordinator reaches you at, for --token-out')
    .option('--json', 'print the address as one JSON line {owner, url, pubkey_hex, protocols, …}')
    .action(
      cli.act((spec: string, flags: DelegateFlags) => runDelegate(cli.ctx, env, spec, flags)),
    );
  group
    .command('run')
    .description('decide across delegates: the decision, the blocked options, the receipt')
    .argument('[url...]', "each delegate's address, http://host:port (default: the --tokens URLs)")
    .requiredOption('--options <file>', 'the shared options: a JSON list, or {title, options}')
    .option(
      '--roster <file>',
      'pin each owner to a key: {"Ana": "ed25519:…", …}; every owner must answer',
    )
    .option(
      '--token-env <var>',
      `send the bearer token in this variable (default ${DEFAULT_TOKEN_ENV} if set)`,
    )
    .option(
      '--tokens <file>',
      'delegates\' tokens: {"http://host:port": "token", …} (repeat for each file)',
      (file: string, files: string[]) => [...files, file],
      [] as string[],
    )
    .option('--timeout <ms>', 'the deadline of each request', String(DEFAULT_TIMEOUT_MS))
    .option('--concurrency <n>', 'requests in flight per delegate', String(DEFAULT_CONCURRENCY))
    .option('--protocol <version>', '0.1: plain verdict/0.1 even when every delegate speaks 0.2')
    .option('--require-session', "every delegate's verdicts bound to this run's session")
    .option('--receipt <file>', 'also write the receipt to this file')
    .option('--json', 'print the receipt (or {status: "failed", failures}) as JSON')
    .action(cli.act((urls: string[], flags: RunFlags) => runDecision(cli.ctx, env, urls, flags)));
  group
    .command('roster')
    .description("one roster from the owners' entries (--roster-out) or their delegates' cards")
    .argument('<source...>', 'a roster file, or a delegate URL whose card key is pinned')
    .option('--out <file>', 'write the roster here (else it is printed)')
    .action(cli.act((sources: string[], flags: RosterFlags) => runRoster(cli.ctx, sources, flags)));
  group
    .command('meeting')
    .description('three delegates with private calendars pick a meeting slot, then Dan joins')
    .option(
      '--json',
      'print each act as {status, decision, transcript_sha256, protocol, non_betrayal}',
    )
    .action(cli.act((flags: { json?: boolean }) => runMeeting(cli.ctx, flags.json === true)));
  group
    .command('env')
    .description('every delegate its own OS process over HTTP, the run, then each owner checks')
    .argument('[party...]', 'the owners to run (default: every party of the spec)')
    .option('--spec <file>', 'a decision spec (default: five meeting calendars)')
    .option('--receipt <file>', 'also write the receipt to this file')
    .option(
      '--json',
      'print {status, decision, transcript_sha256, protocol, non_betrayal, delegates}',
    )
    .action(cli.act((names: string[], flags: EnvFlags) => runEnvironment(cli.ctx, names, flags)));
  group
    .command('ratify')
    .description(
      'at your own terminal: see the decision against your sheet, accept or reject, signed',
    )
    .argument('<receipt>', 'the receipt of the decision (run --receipt, or run --json)')
    .argument('<spec>', 'your sheet: a spec (with --party) or your party file')
    .option('--party <name>', 'your owner name in the spec')
    .option('--key <file>', 'your key file (default PARLEY_HOME/principal.key)')
    .option('--out <file>', 'write your signed answer here')
    .option('--json', 'print your signed answer')
    .action(
      cli.act((receipt: string, spec: string, flags: RatifyFlags) =>
        runRatify(cli.ctx, receipt, spec, flags),
      ),
    );
  group
    .command('seal')
    .description("bind everyone's signed answers into the receipt: unanimous, or not agreed")
    .argument('<receipt>', 'the receipt of the decision')
    .argument('<answer...>', 'each signed answer (ratify --out), or a file with a list of them')
    .option('--out <file>', 'write the sealed receipt here')
    .option('--json', 'print the sealed receipt')
    .action(
      cli.act((receipt: string, answers: string[], flags: SealFlags) =>
        runSeal(cli.ctx, receipt, answers, flags),
      ),
    );
}
