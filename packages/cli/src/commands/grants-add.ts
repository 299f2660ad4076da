import { readFileSync } from 'node:fs';
import {
  decodeGrant,
  GRANT_PREFIX,
  type Grant,
  GrantFormatError,
  grantHolder,
  grantId,
  renderTime,
} from '@parley/protocol';
import type { Command } from 'commander';
import { CliError, EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { checkChain } from '../grants/check-chain.js';
import { pendingConsentFor } from '../home/consent-file.js';
import { localPublicKey } from '../home/local-keys.js';
import {
  grantExpiry,
  grantOnly,
  readGrantTokens,
  saveGrantToken,
  walletPath,
} from '../home/wallet-file.js';
import { commandLine } from '../shell-quote.js';
import { readStdin } from '../standard-streams.js';

/**
 * `parley grants add GRANT`: puts a grant made on another device into the agent's wallet: a
 * principal's grant (`parley grant --to AGENT_KEY` on their machine) or an approver's consent
 * (`parley approve --request`, §6.6, docs/extensions.md §E4). It is added only when every
 * signature and link verifies (§6.2, §6.4), the local agent key holds it, and it has not expired;
 * whether a service trusts its issuer is for the service to judge at the next request.
 */
export function registerGrantsAdd(grants: Command, cli: Cli): void {
  grants
    .command('add')
    .description("add a grant made on another device to the agent's wallet, after checking it")
    .argument('<grant>', 'a pg1. token, a file holding one, or - for stdin')
    .action(
      cli.act(async (source: string) => {
        const { ctx } = cli;
        const token = await readToken(source);
        const grant = decode(token);
        const id = grantId(token);
        const broken = (await checkChain(grant)).find((check) => check.problem !== undefined);
        if (broken !== undefined) {
          throw new CliError(
            `grant ${id} does not verify: block ${broken.index} ${broken.problem}; not added`,
          );
        }
        const agent = await localPublicKey(ctx.home, 'agent');
        const holder = grantHolder(grant);
        if (holder !== agent) {
          throw new CliError(
            `grant ${id} is held by ${holder}, not by this home's agent (${agent ?? 'no agent key'}); not added`,
          );
        }
        const exp = grantExpiry(grant);
        if (exp !== undefined && exp <= ctx.now()) {
          throw new CliError(`grant ${id} expired at ${renderTime(exp)}; not added`);
        }
        const known = readGrantTokens(ctx.home).includes(token);
        if (!known) saveGrantToken(ctx.home, token, ctx.now());
        const only = grantOnly(grant);
        const kind = only === undefined ? 'grant' : 'consent grant';
        ctx.out(
          `${known ? 'already in' : 'added to'} the wallet: ${kind} ${id} from ${grant[0].p.iss}\n`,
        );
        const pending = only === undefined ? undefined : pendingConsentFor(ctx.home, only);
        if (pending !== undefined) {
          ctx.err(
            `it approves proposal ${pending.consent.proposal}; commit again: ${commandLine([...cli.self, 'commit', pending.url, pending.consent.proposal])}\n`,
          );
        } else {
          ctx.err(`the wallet is ${walletPath(ctx.home)}; \`parley grants\` lists it\n`);
        }
        return EXIT.ok;
      }),
    );
}

/** The token an argument names: itself, stdin for `-`, else the file it names. */
async function readToken(source: string): Promise<string> {
  if (source.startsWith(GRANT_PREFIX)) return source;
  let text: string;
  try {
    text = source === '-' ? await readStdin() : readFileSync(source, 'utf8');
  } catch (error) {
    throw new CliError(
      `"${source.slice(0, 60)}" is neither a ${GRANT_PREFIX} token nor a file that can be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const token = text.trim();
  if (!token.startsWith(GRANT_PREFIX)) {
    throw new CliError(
      `${source === '-' ? 'stdin' : source} does not hold a ${GRANT_PREFIX} grant token`,
    );
  }
  return token;
}

function decode(token: string): Grant {
  try {
    return decodeGrant(token);
  } catch (error) {
    if (error instanceof GrantFormatError) throw new CliError(`not a grant: ${error.message}`);
    throw error;
  }
}
