import {
  blockId,
  decodeGrant,
  isPublicKey,
  type KeyPair,
  type RevocationTarget,
  revocationTargetId,
  signRevocation,
} from '@parley/protocol';
import type { Command } from 'commander';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { collectList } from '../grants/caveat-options.js';
import { resolveToken } from '../grants/resolve-token.js';
import { loadAgent, loadPrincipal } from '../home/local-keys.js';
import { reasonOf } from '../home/parley-home.js';
import { dropRevokedGrants } from '../home/wallet-file.js';
import { openService } from '../verbs/open-service.js';

type RevokeFlags = {
  key?: string;
  block?: string;
  as?: string;
  principal?: string;
  svc?: string[];
};

/** The block to revoke: the root by default, or block N (0 is the root) of the chain. */
function blockOf(token: string, index: string | undefined): { block: string } {
  const grant = decodeGrant(token);
  const n = index === undefined ? 0 : Number(index);
  if (!Number.isSafeInteger(n) || n < 0 || n >= grant.length) {
    throw new CliError(`--block must be a block number from 0 (the root) to ${grant.length - 1}`);
  }
  return { block: blockId(grant[n] as (typeof grant)[number]) };
}

/**
 * `parley revoke GRANT | --key KEY --svc URL…` (docs/extensions.md §E2): signs a revocation of a
 * grant's root block (or `--block N` of its chain), or of a holder key, and sends it to each
 * service. The principal signs by default; `--as agent` signs with the agent key, to revoke a
 * delegation the agent made. The local wallet drops the grants it revokes.
 */
export function registerRevoke(program: Command, cli: Cli): void {
  program
    .command('revoke')
    .description(
      'revoke a grant (its root, or --block N of its chain) or a holder key (--key) at each service',
    )
    .argument('[grant]', 'a pg1. token, a grant id in the wallet, or - for stdin')
    .option('--key <key>', 'revoke this holder key in every grant the principal issued to it')
    .option('--block <n>', 'revoke block N of the chain instead of its root (0)')
    .option('--as <signer>', 'principal (default) or agent: who signs the revocation')
    .option('--principal <file>', 'the principal key file (default PARLEY_HOME/principal.key)')
    .option('--svc <url>', 'a service to tell (repeatable)', collectList)
    .action(
      cli.act(async (grantText: string | undefined, flags: RevokeFlags): Promise<ExitCode> => {
        const { ctx } = cli;
        if ((grantText === undefined) === (flags.key === undefined)) {
          throw new CliError('name what to revoke: a GRANT, or --key KEY (not both)');
        }
        if (flags.svc === undefined || flags.svc.length === 0) {
          throw new CliError('--svc URL is required: the services that must refuse it from now on');
        }
        const signer = await signerOf(ctx.home, flags);
        let target: RevocationTarget;
        let evidence: string | undefined;
        if (flags.key !== undefined) {
          if (!isPublicKey(flags.key))
            throw new CliError(`--key ${String(flags.key).slice(0, 60)} is not an ed25519 key`);
          if (flags.block !== undefined) throw new CliError('--block goes with a GRANT, not --key');
          target = { key: flags.key };
        } else {
          evidence = await resolveToken(ctx.home, grantText as string);
          target = blockOf(evidence, flags.block);
        }
        const revocation = await signRevocation(signer, target, ctx.now());
        let failed = 0;
        for (const url of flags.svc) {
          try {
            const open = await openService(ctx, url, {});
            try {
              const brief = await open.client.hello();
              if (brief.ext?.revocation === undefined) {
                ctx.err(
                  `✗ ${brief.service.id} at ${url} does not offer revocation; it was not told\n`,
                );
                failed++;
                continue;
              }
              const answer = await open.client.revoke(revocation, evidence);
              const data = answer.data as { at?: number };
              ctx.out(`revoked at ${brief.service.id} (${url}) since ${String(data.at)}\n`);
            } finally {
              await open.client.close();
            }
          } catch (error) {
            ctx.err(`✗ ${url}: ${reasonOf(error)}\n`);
            failed++;
          }
        }
        const dropped = dropRevokedGrants(ctx.home, revocationTargetId(revocation.p));
        if (dropped > 0) ctx.err(`dropped ${dropped} revoked grant(s) from the local wallet\n`);
        return failed === 0 ? EXIT.ok : EXIT.error;
      }),
    );
}

async function signerOf(home: string, flags: RevokeFlags): Promise<KeyPair> {
  const as = flags.as ?? 'principal';
  if (as === 'principal') return loadPrincipal(home, flags.principal);
  if (as === 'agent') {
    if (flags.principal !== undefined) throw new CliError('--principal goes with --as principal');
    return loadAgent(home);
  }
  throw new CliError(`--as takes principal or agent, not "${as.slice(0, 40)}"`);
}
