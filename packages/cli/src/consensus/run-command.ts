import { ConsensusError } from '@parley/consensus';
import {
  type NetworkOutcome,
  PROTOCOL_V1,
  runAcrossDelegates,
  WIRE_ERRORS,
} from '@parley/consensus/net';
import type { CliContext } from '../cli-context.js';
import { CliError, type ExitCode } from '../cli-error.js';
import { reportOutcome } from './network-report.js';
import { readOptionsFile } from './options-file.js';
import { readRosterFile } from './roster-file.js';
import { tokenFromEnv } from './token-env.js';
import { normalUrl, readTokensFiles } from './tokens-file.js';

export type RunFlags = {
  options: string;
  roster?: string;
  tokenEnv?: string;
  tokens: string[];
  timeout: string;
  concurrency: string;
  protocol?: string;
  requireSession?: boolean;
  receipt?: string;
  json?: boolean;
};

/**
 * `parley consensus run [URL...] --options FILE`: the coordinator. Asks every delegate (the URLs,
 * or without them every URL of the `--tokens` files) about every option and prints the decision,
 * the options a red line blocked (never whose), and the receipt; or, when a delegate fails, which
 * one and how (exit 1, no receipt).
 */
export async function runDecision(
  ctx: CliContext,
  env: NodeJS.ProcessEnv,
  given: readonly string[],
  flags: RunFlags,
): Promise<ExitCode> {
  const tokens = await readTokensFiles(flags.tokens);
  const urls = given.length > 0 ? given : [...tokens.keys()];
  if (urls.length === 0) {
    throw new CliError("give each delegate's URL, or --tokens files that name them");
  }
  for (const url of urls) {
    if (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url)) {
      throw new CliError(`${url} is not a delegate address; give http://host:port`);
    }
  }
  const { title, options } = await readOptionsFile(flags.options);
  const roster = flags.roster === undefined ? undefined : await readRosterFile(flags.roster);
  const token = tokenFromEnv(env, flags.tokenEnv);
  const timeoutMs = positive(flags.timeout, '--timeout');
  const concurrency = positive(flags.concurrency, '--concurrency');
  if (flags.protocol !== undefined && flags.protocol !== '0.1') {
    throw new CliError('--protocol takes 0.1 (plain verdict/0.1, as with a Python coordinator)');
  }
  const required = flags.requireSession === true ? true : (roster?.requireSession ?? []);
  if (flags.protocol !== undefined && (required === true || required.length > 0)) {
    const source =
      required === true ? '--require-session' : `${flags.roster} (for ${required.join(', ')})`;
    throw new CliError(
      `--protocol 0.1 has no sessions, but ${source} requires session-bound verdicts`,
    );
  }
  let outcome: NetworkOutcome;
  try {
    outcome = await runAcrossDelegates(
      urls.map((url) => {
        const own = tokens.get(normalUrl(url)) ?? token;
        return { url, ...(own === null ? {} : { token: own }) };
      }),
      options,
      {
        ...(title === null ? {} : { title }),
        ...(roster === undefined ? {} : { roster: roster.keys }),
        requireSession: required,
        timeoutMs,
        concurrency,
        ...(flags.protocol === undefined ? {} : { protocol: PROTOCOL_V1 }),
      },
    );
  } catch (error) {
    if (error instanceof ConsensusError) throw new CliError(`${flags.options}: ${error.message}`);
    throw error;
  }
  const report = reportOutcome(outcome, {
    title: title ?? 'Decision across delegates',
    json: flags.json === true,
    receiptPath: flags.receipt,
    keys: roster === undefined ? undefined : `pinned to ${flags.roster}`,
  });
  ctx.out(report.text);
  if (!outcome.ok && flags.protocol !== undefined && outcome.failures.some(refusedPlain)) {
    ctx.err(
      'note: a delegate that answers only in a session refuses --protocol 0.1; run without it, or its owner adds --sessionless\n',
    );
  }
  return report.exitCode;
}

function refusedPlain(failure: { readonly detail: string }): boolean {
  return failure.detail.includes(`HTTP 403: ${WIRE_ERRORS.sessionRequired}`);
}

function positive(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    throw new CliError(`${flag} takes a positive whole number (got "${text}")`);
  }
  return value;
}
