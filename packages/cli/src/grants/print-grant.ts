import { type Grant, grantId, renderTime } from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import { describeCaveat } from './describe-caveat.js';
import { spendsWithoutLimit } from './spending-limit.js';

/**
 * The token on stdout (the command's purpose) and what it allows, in plain words, on stderr,
 * with a warning when nothing bounds what its COMMITs may cost.
 */
export function printGrant(ctx: CliContext, grant: Grant, token: string, heading: string): void {
  ctx.out(`${token}\n`);
  const last = grant[grant.length - 1];
  const lines = [
    `${heading} (grant ${grantId(grant)}, ${grant.length} block${grant.length === 1 ? '' : 's'})`,
  ];
  if (last !== undefined) {
    lines.push(`  to ${last.p.sub}, issued ${renderTime(last.p.iat)}`);
    for (const caveat of last.p.caveats) lines.push(`  - ${describeCaveat(caveat, ctx.now())}`);
  }
  if (spendsWithoutLimit(grant)) {
    lines.push(
      "warning: no --per or --spend, so a COMMIT under this grant may cost any amount without the principal's consent; add --per AMOUNT:CUR (each commit) or --spend AMOUNT:CUR (all together)",
    );
  }
  ctx.err(`${lines.join('\n')}\n`);
}
