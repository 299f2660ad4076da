import { type Grant, grantId, renderTime } from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import { describeCaveat } from './describe-caveat.js';

/** The token on stdout (the command's purpose) and what it allows, in plain words, on stderr. */
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
  ctx.err(`${lines.join('\n')}\n`);
}
