import type { Command } from 'commander';
import { EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { initKeys, keyPath } from '../home/local-keys.js';

/** `parley keys init [--force]`: the principal key and the agent key, mode 0600, in PARLEY_HOME. */
export function registerKeys(program: Command, cli: Cli): void {
  const keys = program.command('keys').description('the local principal and agent keys');
  keys
    .command('init')
    .description('create a principal key and an agent key in PARLEY_HOME (mode 0600)')
    .option('--force', 'replace existing keys (the old ones are lost)')
    .action(
      cli.act(async (flags: { force?: boolean }) => {
        const { home } = cli.ctx;
        const result = await initKeys(home, { force: flags.force === true });
        cli.ctx.out(
          [
            `principal ${result.principal}  (${keyPath(home, 'principal')})`,
            `agent     ${result.agent}  (${keyPath(home, 'agent')})`,
            '',
          ].join('\n'),
        );
        cli.ctx.err(
          'Keep principal.key away from agents: it signs grants and consents. Give the agent a grant with `parley grant`.\n',
        );
        return EXIT.ok;
      }),
    );
}
