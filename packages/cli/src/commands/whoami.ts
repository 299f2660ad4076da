import type { Command } from 'commander';
import { CliError, EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { describeHome, otherHomeHint } from '../home/describe-home.js';
import { localPublicKey } from '../home/local-keys.js';
import { grantStanding, readWallet, walletPath } from '../home/wallet-file.js';

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
          throw new CliError(
            `no keys in ${describeHome(cli.ctx)}; ${otherHomeHint(cli.ctx)}, or create keys here with \`parley keys init\``,
          );
        }
        const wallet = readWallet(home);
        const tokens = wallet.grants;
        const now = cli.ctx.now();
        const usable = tokens.filter(
          (token) => grantStanding(wallet, token, agent, now) === 'usable',
        ).length;
        if (flags.json === true) {
          cli.ctx.out(
            `${JSON.stringify({ home, principal: principal ?? null, agent: agent ?? null, grants: tokens.length, usable })}\n`,
          );
          return EXIT.ok;
        }
        cli.ctx.out(
          [
            `home       ${describeHome(cli.ctx)}`,
            `principal  ${principal ?? '(none)'}`,
            `agent      ${agent ?? '(none)'}`,
            `grants     ${tokens.length} in ${walletPath(home)}, ${usable} usable now (parley grants lists them)`,
            '',
          ].join('\n'),
        );
        return EXIT.ok;
      }),
    );
}
