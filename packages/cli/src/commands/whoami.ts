import { decodeGrant, grantHolder } from '@parley/protocol';
import type { Command } from 'commander';
import { CliError, EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { localPublicKey } from '../home/local-keys.js';
import { grantExpiry, readGrantTokens, walletPath } from '../home/wallet-file.js';

/** `parley whoami [--json]`: the local principal and agent keys and the agent's grants. */
export function registerWhoami(program: Command, cli: Cli): void {
  program
    .command('whoami')
    .description('show the local keys and how many grants the agent holds')
    .option('--json', 'print as JSON')
    .action(
      cli.act(async (flags: { json?: boolean }) => {
        const { home } = cli.ctx;
        const principal = await localPublicKey(home, 'principal');
        const agent = await localPublicKey(home, 'agent');
        if (principal === undefined && agent === undefined) {
          throw new CliError(`no keys in ${home}; create them with \`parley keys init\``);
        }
        const tokens = readGrantTokens(home);
        const now = cli.ctx.now();
        const usable = tokens.filter((token) => {
          try {
            const grant = decodeGrant(token);
            const exp = grantExpiry(grant);
            return grantHolder(grant) === agent && (exp === undefined || exp > now);
          } catch {
            return false;
          }
        }).length;
        if (flags.json === true) {
          cli.ctx.out(
            `${JSON.stringify({ home, principal: principal ?? null, agent: agent ?? null, grants: tokens.length, usable })}\n`,
          );
          return EXIT.ok;
        }
        cli.ctx.out(
          [
            `home       ${home}`,
            `principal  ${principal ?? '(none)'}`,
            `agent      ${agent ?? '(none)'}`,
            `grants     ${tokens.length} in ${walletPath(home)}, ${usable} usable now`,
            '',
          ].join('\n'),
        );
        return EXIT.ok;
      }),
    );
}
