import { randomBytes } from 'node:crypto';
import { partySheet, publicKeyHex, pyDumps } from '@parley/consensus';
import { Delegate, type DelegateServer, serveDelegate } from '@parley/consensus/net';
import { publicKeyString } from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import { writeJsonFile } from '../home/json-file.js';
import { reasonOf } from '../home/parley-home.js';
import { hostPortFlag } from '../serve/host-port.js';
import { untilStopped } from '../serve/until-stopped.js';
import { readTextFile } from '../text-file.js';
import { delegateKey } from './delegate-key.js';
import { readOptionsFile } from './options-file.js';
import { readParty } from './party-file.js';
import { parseRate } from './rate-flag.js';
import { rosterFileValue } from './roster-file.js';
import { tokenFromEnv } from './token-env.js';
import { normalUrl } from './tokens-file.js';

export type DelegateFlags = {
  party?: string;
  partyFile?: string;
  host: string;
  port: string;
  tokenEnv?: string;
  rate: string;
  failedRate: string;
  key?: string;
  unsigned?: boolean;
  options?: string;
  sessionless?: boolean;
  rosterOut?: string;
  tokenOut?: string;
  url?: string;
  json?: boolean;
};

/**
 * `parley consensus delegate SPEC --party NAME`: serves one owner's private sheet over HTTP
 * (`GET /card`, `POST /consider`, `POST /session`) until SIGTERM or Ctrl-C. Its address goes to
 * stdout (one JSON line with --json), everything else to stderr. `--roster-out` and
 * `--token-out` write what the owner hands the coordinator: their roster entry (public) and
 * their address with its token (secret, mode 0600).
 */
export async function runDelegate(
  ctx: CliContext,
  env: NodeJS.ProcessEnv,
  spec: string | undefined,
  flags: DelegateFlags,
): Promise<ExitCode> {
  // A party file (what `consensus interview` writes) is a party alone: the same reader takes it.
  const path = flags.partyFile ?? spec;
  if (path === undefined || (flags.partyFile !== undefined && spec !== undefined)) {
    throw new CliError('name one sheet to serve: a spec (with --party NAME) or --party-file FILE');
  }
  const party = readParty(await readTextFile(path), path, flags.party);
  const { port } = hostPortFlag(`${flags.host}:${flags.port}`, '--port');
  const rate = parseRate(flags.rate, '--rate');
  const failedRate = parseRate(flags.failedRate, '--failed-rate');
  if (
    flags.url !== undefined &&
    (!/^https?:\/\/[^/]/.test(flags.url) || !URL.canParse(flags.url))
  ) {
    throw new CliError(`--url ${flags.url} is not an address; give http://host:port`);
  }
  if (flags.url !== undefined && flags.tokenOut === undefined) {
    throw new CliError('--url names the address written with the token: it needs --token-out');
  }
  const table =
    flags.options === undefined ? undefined : (await readOptionsFile(flags.options)).options;
  // --token-out makes the token when none was given: 128 random bits no one can guess.
  const token =
    tokenFromEnv(env, flags.tokenEnv) ??
    (flags.tokenOut === undefined ? null : randomBytes(16).toString('hex'));
  const { key, source } = await delegateKey(ctx.home, flags);
  if (key === null && flags.rosterOut !== undefined) {
    throw new CliError("--roster-out writes this delegate's key, and --unsigned has none");
  }
  const delegate = new Delegate(partySheet(party), {
    key,
    sessionless: flags.sessionless === true,
    ...(table === undefined ? {} : { options: table }),
    onSheetError: (error) =>
      ctx.err(
        `a red line or the utility threw on an option, answered as a red line: ${reasonOf(error)}\n`,
      ),
  });
  let server: DelegateServer;
  try {
    server = await serveDelegate(delegate, {
      host: flags.host,
      port,
      token,
      rate,
      failedRate,
      log: (line) => ctx.err(`${line}\n`),
    });
  } catch (error) {
    throw new CliError(`cannot listen on ${flags.host}:${port}: ${reasonOf(error)}`);
  }
  try {
    if (flags.rosterOut !== undefined && key !== null) {
      const entry = { key: publicKeyHex(key), require_session: true };
      writeJsonFile(flags.rosterOut, rosterFileValue(new Map([[party.owner, entry]])));
    }
    if (flags.tokenOut !== undefined && token !== null) {
      writeJsonFile(flags.tokenOut, { [normalUrl(flags.url ?? server.url)]: token });
    }
  } catch (error) {
    await server.close();
    throw error;
  }
  const card = delegate.card();
  if (flags.json === true) {
    ctx.out(
      `${pyDumps({
        owner: party.owner,
        url: server.url,
        pubkey_hex: card.pubkey_hex ?? null,
        protocols: [...(card.protocols ?? [card.protocol])],
        token: token !== null,
        rate: rate === null ? null : flags.rate,
        options: table === undefined ? null : table.length,
      })}\n`,
    );
  } else {
    ctx.out(`delegate for ${party.owner} listening on ${server.url}\n`);
  }
  // With --json the line above says it all; warnings and what happens later still go to stderr.
  if (flags.json !== true) describe(ctx, flags, { key, source, rate, written: token !== null });
  if (token === null) {
    ctx.err(
      'warning: no bearer token (set PARLEY_TOKEN, pass --token-env VAR, or --token-out FILE): anyone who reaches this port can probe the sheet\n',
    );
  }
  if (table === undefined) {
    ctx.err(
      'warning: no --options: whoever holds the token picks the options of each session, so it can ask about options you never saw; pass --options FILE, the options on the table\n',
    );
  }
  await untilStopped([server]);
  if (flags.json !== true) ctx.err(`stopped the delegate for ${party.owner}\n`);
  return EXIT.ok;
}

/** What the owner should know about the running delegate, on stderr. */
function describe(
  ctx: CliContext,
  flags: DelegateFlags,
  state: {
    key: Awaited<ReturnType<typeof delegateKey>>['key'];
    source: string;
    rate: ReturnType<typeof parseRate>;
    written: boolean;
  },
): void {
  const { key, source, rate } = state;
  ctx.err(
    key === null
      ? `${source}\n`
      : `signing with ${publicKeyString(key)} (hex ${publicKeyHex(key)}), from ${source}\n`,
  );
  ctx.err(
    key === null || flags.sessionless === true
      ? 'answers outside sessions too (verdict/0.1): nothing fixes which options it is asked about\n'
      : 'answers only in sessions: each fixes its options at the start and gets one answer for each\n',
  );
  const holder =
    rate === null
      ? 'no limit for the token holder'
      : `at most ${flags.rate.replace('/', ' answers every ')} s to the token holder`;
  const failed =
    flags.failedRate === 'off'
      ? 'no limit for wrong tokens'
      : `${flags.failedRate.replace('/', ' every ')} s to a wrong or missing token`;
  ctx.err(`${holder}, ${failed}, each counted from all addresses together\n`);
  if (flags.rosterOut !== undefined) {
    ctx.err(
      `wrote your roster entry to ${flags.rosterOut}: give it to the coordinator and everyone who verifies\n`,
    );
  }
  if (flags.tokenOut !== undefined && state.written) {
    ctx.err(
      `wrote the address and its token to ${flags.tokenOut} (mode 0600): give it to the coordinator only, privately\n`,
    );
  }
}
