import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS } from '@parley/consensus/net';
import type { Command } from 'commander';
import type { Cli } from '../command-kit.js';
import type { ConfirmFlags } from '../consensus/confirm-command.js';
import { type DelegateFlags, runDelegate } from '../consensus/delegate-command.js';
import { type EnvFlags, runEnvironment } from '../consensus/env-command.js';
import type { InterviewFlags } from '../consensus/interview-command.js';
import { runMeeting } from '../consensus/meeting-command.js';
import { MODEL_FLAG_HELP } from '../consensus/model-flags.js';
import { DEFAULT_FAILED_RATE, DEFAULT_RATE } from '../consensus/rate-flag.js';
import { type RatifyFlags, runRatify } from '../consensus/ratify-command.js';
import type { ReviseFlags } from '../consensus/revise-command.js';
import { type RosterFlags, runRoster } from '../consensus/roster-command.js';
import { type RunFlags, runDecision } from '../consensus/run-command.js';
import { runSeal, type SealFlags } from '../consensus/seal-command.js';
import { DEFAULT_TOKEN_ENV } from '../consensus/token-env.js';
import { collectEach } from '../grants/caveat-options.js';

/**
 * `parley consensus …`: consensus across processes. Each owner's delegate serves their private
 * sheet over HTTP with parley-consensus's wire; the coordinator decides across delegates; each
 * person ratifies at their own terminal; the answers are sealed into the receipt.
 */
export function registerConsensusNetwork(program: Command, cli: Cli, env: NodeJS.ProcessEnv): void {
  const group = program
    .command('consensus')
    .description(
      'state a position and decide across delegates: interview, confirm, delegate, roster, run, ratify, seal',
    );
  // The interview's modules (and the model SDKs) load only when one of its commands runs.
  group
    .command('interview')
    .description(
      'say your position in your own words; confirm the red lines drafted from them; get NAME.party.json',
    )
    .requiredOption('--party <name>', 'your name in the decision')
    .requiredOption('--options <file>', 'the options decided on: a JSON list, or {title, options}')
    .option('--answers <file>', 'do not ask: your answers as JSON {prompt id: text} (- for stdin)')
    .option('--json', 'with --answers: print the draft as JSON (without its token)')
    .option('--draft-out <file>', 'keep the draft, with its token, in this file (mode 0600)')
    .option('--out <file>', 'where the confirmed party file goes (default NAME.party.json)')
    .option('--case <id>', 'the decision this position is for (default the options title)')
    .option('--provider <name>', MODEL_FLAG_HELP.provider)
    .option('--model <name>', MODEL_FLAG_HELP.model)
    .option('--base-url <url>', MODEL_FLAG_HELP.baseUrl)
    .action(
      cli.act((flags: InterviewFlags) =>
        import('../consensus/interview-command.js').then((m) =>
          m.runInterview(cli.ctx, env, cli.self, flags),
        ),
      ),
    );
  group
    .command('revise')
    .description('change a kept draft: answer its questions, drop, fix or add rules')
    .argument('<draft>', 'the draft file (interview --draft-out)')
    .requiredOption('--options <file>', 'the options the draft is checked against')
    .option(
      '--answer <q=rule>',
      "answer a question with a rule, or skip it: q1='cost <= 60'",
      collectEach,
    )
    .option('--drop <id>', 'drop an item or a question', collectEach)
    .option('--fix <id=rule>', "replace an item: h1='cost <= 650'", collectEach)
    .option('--add <rule>', "add a red line or a preference: 'prefer lower cost'", collectEach)
    .option('--out <file>', 'write the new draft here (default: over the draft file)')
    .action(
      cli.act((draft: string, flags: ReviseFlags) =>
        import('../consensus/revise-command.js').then((m) =>
          m.runRevise(cli.ctx, cli.self, draft, flags),
        ),
      ),
    );
  group
    .command('confirm')
    .description('make a kept draft binding: every red line by id and the exact version')
    .argument('<draft>', 'the draft file (interview --draft-out)')
    .option('--hard <ids>', 'the id of every red line of the draft, comma-separated: h1,h2')
    .requiredOption('--version <v>', 'the version of the draft you read')
    .option('--out <file>', 'where the party file goes (default NAME.party.json; mode 0600)')
    .action(
      cli.act((draft: string, flags: ConfirmFlags) =>
        import('../consensus/confirm-command.js').then((m) =>
          m.runConfirm(cli.ctx, cli.self, draft, flags),
        ),
      ),
    );
  group
    .command('delegate')
    .description("serve one owner's private sheet over HTTP (/card, /consider), until Ctrl-C")
    .argument('[spec]', "a decision spec (pick the party with --party) or one party's file")
    .option('--party <name>', 'the owner whose party to serve')
    .option(
      '--party-file <file>',
      'serve this party file (consensus interview or confirm wrote it)',
    )
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
      cli.act((spec: string | undefined, flags: DelegateFlags) =>
        runDelegate(cli.ctx, env, spec, flags),
      ),
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
