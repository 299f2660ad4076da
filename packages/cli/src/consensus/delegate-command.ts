import { partySheet, publicKeyHex, pyDumps } from '@parley/consensus';
import { Delegate, type DelegateServer, serveDelegate } from '@parley/consensus/net';
import { publicKeyString } from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import { reasonOf } from '../home/parley-home.js';
import { parseHostPort } from '../serve/host-port.js';
import { untilStopped } from '../serve/run-example.js';
import { readTextFile } from '../text-file.js';
import { delegateKey } from './delegate-key.js';
import { readParty } from './party-file.js';
import { parseRate } from './rate-flag.js';
import { tokenFromEnv } from './token-env.js';

export type DelegateFlags = {
  party?: string;
  partyFile?: string;
  host: string;
  port: string;
  tokenEnv?: string;
  rate: string;
  key?: string;
  unsigned?: boolean;
  json?: boolean;
};

/**
 * `parley consensus delegate SPEC --party NAME`: serves one owner's private sheet over HTTP
 * (`GET /card`, `POST /consider`, `POST /session`) until SIGTERM or Ctrl-C. Its address goes to
 * stdout (one JSON line with --json), everything else to stderr.
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
  const { port } = parseHostPort(`${flags.host}:${flags.port}`, '--port');
  const rate = parseRate(flags.rate);
  const token = tokenFromEnv(env, flags.tokenEnv);
  const { key, source } = await delegateKey(ctx.home, flags);
  const delegate = new Delegate(partySheet(party), {
    key,
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
      log: (line) => ctx.err(`${line}\n`),
    });
  } catch (error) {
    throw new CliError(`cannot listen on ${flags.host}:${port}: ${reasonOf(error)}`);
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
      })}\n`,
    );
  } else {
    ctx.out(`delegate for ${party.owner} listening on ${server.url}\n`);
  }
  // With --json the line above says it all; warnings and what happens later still go to stderr.
  if (flags.json !== true) {
    ctx.err(
      key === null
        ? `${source}\n`
        : `signing with ${publicKeyString(key)} (hex ${publicKeyHex(key)}), from ${source}\n`,
    );
    ctx.err(
      rate === null
        ? 'no rate limit\n'
        : `at most ${flags.rate.replace('/', ' requests per client every ')} seconds\n`,
    );
  }
  if (token === null) {
    ctx.err(
      'warning: no bearer token (set PARLEY_TOKEN, or pass --token-env VAR): anyone who reaches this port can probe the sheet\n',
    );
  }
  await untilStopped([server]);
  if (flags.json !== true) ctx.err(`stopped the delegate for ${party.owner}\n`);
  return EXIT.ok;
}
