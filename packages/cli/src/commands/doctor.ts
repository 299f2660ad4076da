import type { Command } from 'commander';
import { CliError, EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { fail, renderCheck } from '../doctor/doctor-check.js';
import { hostChecks } from '../doctor/host-checks.js';
import { grantChecks, keyChecks, nodeCheck } from '../doctor/local-checks.js';
import { serviceChecks } from '../doctor/service-checks.js';
import { localPublicKey } from '../home/local-keys.js';
import { walletPath } from '../home/wallet-file.js';
import { hostEnvironment } from '../setup/mcp-hosts.js';

/**
 * `parley doctor [--services URL…]`: one line per check (Node, the home and its keys and their
 * modes, the grants and their expiry, the MCP hosts' parley entries, each service they or
 * --services name), a fix on each failure; exits 1 when any check failed, else 0.
 */
export function registerDoctor(program: Command, cli: Cli): void {
  program
    .command('doctor')
    .description('check Node, keys, grants, services and MCP host configs; a fix for each failure')
    .option('--services <urls...>', 'also check these services')
    .action(
      cli.act(async (flags: { services?: string[] }) => {
        const { ctx } = cli;
        const checks = [nodeCheck(), ...(await keyChecks(ctx, cli.self))];
        const agent = await localPublicKey(ctx.home, 'agent').catch(() => undefined);
        try {
          checks.push(...grantChecks(ctx, agent, cli.self));
        } catch (error) {
          if (!(error instanceof CliError)) throw error;
          checks.push(fail('grants', error.message, `fix or remove ${walletPath(ctx.home)}`));
        }
        const hosts = hostChecks(hostEnvironment(), cli.self, ctx.home);
        checks.push(...hosts.checks);
        const services = [...new Set([...(flags.services ?? []), ...hosts.services])];
        checks.push(...(await serviceChecks(ctx, services, cli.self)));
        for (const check of checks) ctx.out(`${renderCheck(check)}\n`);
        const failed = checks.filter((c) => c.status === 'fail').length;
        ctx.err(
          failed === 0
            ? `all ${checks.length} checks passed\n`
            : `${failed} of ${checks.length} checks failed\n`,
        );
        return failed === 0 ? EXIT.ok : EXIT.error;
      }),
    );
}
