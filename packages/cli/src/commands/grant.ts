import { encodeGrant, issueGrant } from '@parley/protocol';
import type { Command } from 'commander';
import { CliError, EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { addCaveatFlags, type CaveatFlags, caveatsFrom } from '../grants/caveat-options.js';
import { printGrant } from '../grants/print-grant.js';
import { recipientKey } from '../grants/recipient.js';
import { loadPrincipal, localPublicKey } from '../home/local-keys.js';
import { saveGrantToken, walletPath } from '../home/wallet-file.js';

type GrantFlags = CaveatFlags & { to?: string; principal?: string; save?: boolean };

/**
 * `parley grant --svc ID --can PATTERN [...]`: §6.2, a root grant signed with the principal key.
 * A grant to the local agent goes into its wallet as well.
 */
export function registerGrant(program: Command, cli: Cli): void {
  addCaveatFlags(
    program
      .command('grant')
      .description('sign a grant from the principal to an agent (§6.2, §6.3)')
      .option('--to <key>', 'the holder: an ed25519 key, or "agent" (the local agent, default)')
      .option('--principal <file>', 'the principal key file (default PARLEY_HOME/principal.key)')
      .option('--no-save', 'do not add a grant for the local agent to its wallet'),
  ).action(
    cli.act(async (flags: GrantFlags) => {
      const { ctx } = cli;
      if (flags.svc === undefined) {
        throw new CliError(
          '--svc is required: a grant is disclosed only to the services it names (e.g. --svc shop.example)',
        );
      }
      const to = await recipientKey(ctx.home, flags.to);
      const principal = await loadPrincipal(ctx.home, flags.principal);
      const grant = await issueGrant(principal, {
        sub: to,
        caveats: caveatsFrom(flags, ctx.now()),
      });
      const token = encodeGrant(grant);
      printGrant(ctx, grant, token, 'signed with the principal key');
      if (flags.save !== false && to === (await localPublicKey(ctx.home, 'agent'))) {
        saveGrantToken(ctx.home, token, ctx.now());
        ctx.err(`  saved in the agent's wallet ${walletPath(ctx.home)}\n`);
      }
      return EXIT.ok;
    }),
  );
}
