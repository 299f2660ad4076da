import {
  type Block,
  decodeGrant,
  type Grant,
  GrantFormatError,
  grantId,
  renderTime,
} from '@parley/protocol';
import type { Command } from 'commander';
import { CliError, EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { checkChain } from '../grants/check-chain.js';
import { describeCaveat } from '../grants/describe-caveat.js';
import { resolveToken } from '../grants/resolve-token.js';
import { localPublicKey } from '../home/local-keys.js';

/**
 * `parley inspect GRANT`: decodes a grant, checks every signature and link (§6.2, §6.4) and lists
 * each block's caveats in plain words (§6.3). Exit 0 when every signature verifies, 1 when one
 * does not, 2 when the token does not decode.
 */
export function registerInspect(program: Command, cli: Cli): void {
  program
    .command('inspect')
    .description('decode a grant, verify its signatures and list its caveats in plain words')
    .argument('<grant>', 'a pg1. token, a grant id in the wallet, or - for stdin')
    .option('--json', 'print the blocks and the checks as JSON')
    .action(
      cli.act(async (grantText: string, flags: { json?: boolean }) => {
        const { ctx } = cli;
        const token = await resolveToken(ctx.home, grantText);
        let grant: Grant;
        try {
          grant = decodeGrant(token);
        } catch (error) {
          if (error instanceof GrantFormatError)
            throw new CliError(`not a grant: ${error.message}`);
          throw error;
        }
        const checks = await checkChain(grant);
        const ok = checks.every((check) => check.problem === undefined);
        if (flags.json === true) {
          ctx.out(`${JSON.stringify({ id: grantId(grant), ok, blocks: grant, checks })}\n`);
          return ok ? EXIT.ok : EXIT.error;
        }
        const known = new Map<string, string>();
        for (const role of ['principal', 'agent'] as const) {
          const key = await localPublicKey(ctx.home, role).catch(() => undefined);
          if (key !== undefined) known.set(key, `your ${role}`);
        }
        const who = (key: string): string => (known.has(key) ? `${key} (${known.get(key)})` : key);
        const lines = [
          `grant ${grantId(grant)}: ${grant.length} block${grant.length === 1 ? '' : 's'}`,
        ];
        checks.forEach((check, index) => {
          const block = grant[index] as Block;
          lines.push(
            '',
            `block ${index}${index === 0 ? ' (root)' : ' (delegation)'}: ${check.problem === undefined ? 'signature verifies' : `INVALID, ${check.problem}`}`,
            `  from    ${who(check.signer)}`,
            `  to      ${who(check.holder)}`,
            `  issued  ${renderTime(block.p.iat)}`,
            ...(block.p.caveats.length === 0
              ? ['  - no caveats: anything the signer may do']
              : block.p.caveats.map((caveat) => `  - ${describeCaveat(caveat, ctx.now())}`)),
          );
        });
        lines.push(
          '',
          `holder: ${who(checks[checks.length - 1]?.holder ?? '')}`,
          ok
            ? 'every signature and link verifies; whether a service trusts the principal, and whether the caveats allow a request, is for that service to judge'
            : 'this grant is INVALID: a service will refuse it',
          '',
        );
        ctx.out(lines.join('\n'));
        return ok ? EXIT.ok : EXIT.error;
      }),
    );
}
