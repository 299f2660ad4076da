import { decodeGrant, grantId, type JsonValue } from '@parley/protocol';
import type { Command } from 'commander';
import { EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { describeCaveat } from '../grants/describe-caveat.js';
import { NO_LIMIT, spendsWithoutLimit } from '../grants/spending-limit.js';
import { describeHome } from '../home/describe-home.js';
import { localPublicKey } from '../home/local-keys.js';
import {
  consumedBy,
  grantOnly,
  grantStanding,
  readWallet,
  walletPath,
} from '../home/wallet-file.js';
import { registerGrantsAdd } from './grants-add.js';

/** One wallet entry as `parley grants` shows it. */
type GrantEntry = {
  id: string;
  standing: string;
  consumedBy?: string;
  principal?: string;
  blocks?: number;
  consentFor?: string;
  /** §6.3: nothing bounds what its COMMITs may cost (no per or spend caveat). */
  noSpendingLimit?: true;
  caveats: string[];
};

/**
 * `parley grants [--json]`: the agent's wallet, one grant at a time: whether it can be used now
 * (expired, held by another key, a consent consumed by a commit), who issued it and its caveats
 * in words (§6.3), every block's, since each narrows the one before, and "no limit" when no
 * caveat bounds what its COMMITs may cost.
 */
export function registerGrants(program: Command, cli: Cli): void {
  const grants = program
    .command('grants')
    .description("list the agent's grants: expiry, caveats in words, consumed consents")
    .option('--json', 'print as JSON')
    .action(
      cli.act(async (flags: { json?: boolean }) => {
        const { ctx } = cli;
        const agent = await localPublicKey(ctx.home, 'agent');
        const wallet = readWallet(ctx.home);
        const now = ctx.now();
        const entries = wallet.grants.map((token): GrantEntry => {
          const standing = grantStanding(wallet, token, agent, now);
          if (standing === 'does not decode') {
            return { id: `(${token.slice(0, 12)}…)`, standing, caveats: [] };
          }
          const grant = decodeGrant(token);
          const caveats = [
            ...new Set(
              grant.flatMap((block) =>
                block.p.caveats.map((caveat: JsonValue) => describeCaveat(caveat, now)),
              ),
            ),
          ];
          const consumed = consumedBy(wallet, token);
          const only = grantOnly(grant);
          return {
            id: grantId(token),
            standing,
            ...(consumed === undefined ? {} : { consumedBy: consumed }),
            principal: grant[0].p.iss,
            blocks: grant.length,
            ...(only === undefined ? {} : { consentFor: only }),
            ...(spendsWithoutLimit(grant) ? { noSpendingLimit: true as const } : {}),
            caveats,
          };
        });
        if (flags.json === true) {
          ctx.out(
            `${JSON.stringify({ wallet: walletPath(ctx.home), agent: agent ?? null, grants: entries })}\n`,
          );
          return EXIT.ok;
        }
        ctx.out(`${render(entries)}`);
        ctx.err(
          `${entries.length} grant${entries.length === 1 ? '' : 's'} in ${walletPath(ctx.home)}, home ${describeHome(ctx)}, agent ${agent ?? '(no agent key)'}\n`,
        );
        return EXIT.ok;
      }),
    );
  registerGrantsAdd(grants, cli);
}

function render(entries: readonly GrantEntry[]): string {
  const lines: string[] = [];
  for (const entry of entries) {
    const standing =
      entry.standing === 'consumed' ? `consumed by receipt ${entry.consumedBy}` : entry.standing;
    const kind = entry.consentFor === undefined ? 'grant' : 'consent';
    const from =
      entry.principal === undefined
        ? ''
        : ` · from ${entry.principal}${entry.blocks === 1 ? '' : ` (${entry.blocks} blocks)`}`;
    lines.push(`[${entry.id}] ${kind} · ${standing}${from}`);
    for (const caveat of entry.caveats) lines.push(`  - ${caveat}`);
    if (entry.noSpendingLimit === true) lines.push(`  - ${NO_LIMIT}`);
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
