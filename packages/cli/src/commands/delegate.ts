import {
  delegateGrant,
  EncodingError,
  encodeGrant,
  type Grant,
  GrantFormatError,
  GrantIssueError,
} from '@parley/protocol';
import type { Command } from 'commander';
import { CliError, EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { addCaveatFlags, type CaveatFlags, caveatsFrom } from '../grants/caveat-options.js';
import { printGrant } from '../grants/print-grant.js';
import { recipientKey } from '../grants/recipient.js';
import { resolveToken } from '../grants/resolve-token.js';
import { loadAgent } from '../home/local-keys.js';

type DelegateFlags = CaveatFlags & { to: string };

/**
 * `parley delegate GRANT --to KEY [...]`: §6.2, appends a block signed by the local agent (the
 * grant's holder), handing a narrower grant to a sub-agent. Caveats only accumulate.
 */
export function registerDelegate(program: Command, cli: Cli): void {
  addCaveatFlags(
    program
      .command('delegate')
      .description('hand a narrower grant to another key, signed by the local agent (§6.2)')
      .argument('<grant>', 'a pg1. token, a grant id in the wallet, or - for stdin')
      .requiredOption('--to <key>', 'the sub-agent: an ed25519 key'),
  ).action(
    cli.act(async (grantText: string, flags: DelegateFlags) => {
      const { ctx } = cli;
      const parent = await resolveToken(ctx.home, grantText);
      const agent = await loadAgent(ctx.home);
      const sub = await recipientKey(ctx.home, flags.to);
      const caveats = caveatsFrom(flags, ctx.now());
      let grant: Grant;
      try {
        grant = await delegateGrant(parent, agent, { sub, caveats });
      } catch (error) {
        if (
          error instanceof GrantFormatError ||
          error instanceof GrantIssueError ||
          error instanceof EncodingError
        ) {
          throw new CliError(`cannot delegate: ${error.message}`);
        }
        throw error;
      }
      printGrant(ctx, grant, encodeGrant(grant), 'delegated, signed with the agent key');
      return EXIT.ok;
    }),
  );
}
