import { decodeGrant, type FinalReply } from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import type { Cli } from '../command-kit.js';
import { describeHome, otherHomeHint } from '../home/describe-home.js';
import { commandLine } from '../shell-quote.js';
import type { HelloedService } from './with-service.js';

/**
 * §4.4: a proposal from an INTENT that carried no grant can never be committed. Before such an
 * INTENT goes out, says so on stderr, with the home and keys in use and what to do; answers
 * whether grants go with it.
 */
export function noteIntentGrants(cli: Cli, open: HelloedService, capability: string): boolean {
  const { ctx } = cli;
  const grant = commandLine([
    ...cli.self,
    'grant',
    '--svc',
    open.service,
    '--can',
    capabilityPattern(capability),
  ]);
  if (open.wallet === undefined) {
    ctx.err(
      [
        `note: no agent key in ${describeHome(ctx)}, so this INTENT carries no grant and its proposals can never be committed (§4.4)`,
        `  ${otherHomeHint(ctx)}`,
        `  or set up this home: ${commandLine([...cli.self, 'keys', 'init'])}, then ${grant} (from a principal ${open.service} trusts)`,
        '',
      ].join('\n'),
    );
    return false;
  }
  if (open.wallet.grantsFor(open.service).length === 0) {
    ctx.err(
      [
        `note: the agent ${open.wallet.publicKey} in ${describeHome(ctx)} holds no usable grant for ${open.service}, so this INTENT carries none and its proposals can never be committed (§4.4)`,
        `  ${otherHomeHint(ctx)}`,
        `  or give it one: ${grant} (from a principal ${open.service} trusts)`,
        '',
      ].join('\n'),
    );
    return false;
  }
  return true;
}

/**
 * After an `unauthorized` ERROR to INTENT, COMMIT or UNDO: which agent and principals the refused
 * grants
 * came from, and the two ways out (the right home, or a service that trusts that principal).
 */
export function explainUnauthorized(
  ctx: CliContext,
  open: HelloedService,
  reply: FinalReply,
): void {
  if (reply.kind !== 'ERROR' || reply.code !== 'unauthorized' || open.wallet === undefined) return;
  const principals = new Set<string>();
  for (const token of open.wallet.grantsFor(open.service)) {
    try {
      const root = decodeGrant(token)[0];
      principals.add(root.p.iss);
    } catch {
      // loadWallet kept only tokens that decode.
    }
  }
  const from =
    principals.size === 0
      ? 'it holds no grant for this service'
      : `its grants for ${open.service} come from ${[...principals].join(', ')}`;
  ctx.err(
    [
      `the agent ${open.wallet.publicKey} in ${describeHome(ctx)} was refused; ${from}`,
      `  ${otherHomeHint(ctx)}`,
      `  or have ${open.service} trust ${principals.size === 1 ? 'that principal' : 'the principal'} (its operator runs it with --trust ${principals.size === 1 ? [...principals][0] : 'ed25519:…'})`,
      '',
    ].join('\n'),
  );
}

/** `calendar.reschedule` → `calendar.*`: the capabilities of the same family. */
function capabilityPattern(capability: string): string {
  const dot = capability.lastIndexOf('.');
  return dot === -1 ? capability : `${capability.slice(0, dot)}.*`;
}
