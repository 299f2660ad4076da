import { consentGrant, encodeGrant, grantId, publicKeyString } from '@parley/protocol';
import type { Command } from 'commander';
import { askConsent } from '../approve/ask-consent.js';
import { checkApprover, consentProposal } from '../approve/check-consent.js';
import {
  consentRequestFile,
  readConsentRequest,
  requestMemory,
  writeConsentRequest,
} from '../approve/consent-request-file.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { loadConsent, removeConsent } from '../home/consent-file.js';
import { loadAgent, loadPrincipal } from '../home/local-keys.js';
import { proposalMemory } from '../home/proposal-file.js';
import { saveGrantToken } from '../home/wallet-file.js';
import { commandLine } from '../shell-quote.js';
import { writeTextFile } from '../text-file.js';

type ApproveFlags = {
  principal?: string;
  print?: boolean;
  export?: string;
  request?: string;
  out?: string;
};

/**
 * `parley approve PROPOSAL`: §6.6, the principal's consent step. It checks the saved consent
 * request against the proposal the agent received, shows that proposal's effects, cost, risk,
 * undo and expiry on the controlling terminal, asks yes/no there, and only then signs the
 * consent grant with the principal key and puts it in the agent's wallet. Without a controlling
 * terminal it refuses, so an agent process cannot obtain the signature.
 *
 * An approver on another device: `approve PROPOSAL --export FILE` on the agent's side writes the
 * request with its proposal; `approve --request FILE` on theirs checks it on its own, asks in the
 * same way and writes the consent grant, which `grants add` puts in the agent's wallet.
 */
export function registerApprove(program: Command, cli: Cli): void {
  program
    .command('approve')
    .description('the principal approves a consent request at the terminal (§6.6)')
    .argument('[proposal]', 'the proposal id `parley commit` named (not with --request)')
    .option('--principal <file>', 'the principal key file (default PARLEY_HOME/principal.key)')
    .option('--print', 'also print the consent grant token on stdout')
    .option(
      '--export <file>',
      'write the request, with its proposal, to FILE (- for stdout) for an approver on another device; signs nothing',
    )
    .option(
      '--request <file>',
      'approve a request another device exported (- for stdin), instead of one in this home',
    )
    .option('--out <file>', 'with --request: write the consent grant token to FILE, not stdout')
    .action(
      cli.act(async (proposalId: string | undefined, flags: ApproveFlags) => {
        if (flags.request !== undefined) {
          if (proposalId !== undefined || flags.export !== undefined) {
            throw new CliError(
              '--request approves the request in its file: give neither a proposal id nor --export with it',
            );
          }
          return approveRequest(cli, flags.request, flags);
        }
        if (flags.out !== undefined) {
          throw new CliError('--out goes with --request; here the grant goes into the wallet');
        }
        if (proposalId === undefined) {
          throw new CliError(
            'name the proposal to approve (`parley approve PROPOSAL`), or an exported request (`--request FILE`)',
          );
        }
        if (flags.export !== undefined) return exportRequest(cli, proposalId, flags.export);
        return approveHere(cli, proposalId, flags);
      }),
    );
}

/** The request saved in this home, approved at this terminal; the grant goes into the wallet. */
async function approveHere(cli: Cli, proposalId: string, flags: ApproveFlags): Promise<ExitCode> {
  const { ctx } = cli;
  const { pending, proposal, agent } = await savedRequest(cli, proposalId);
  const principal = await loadPrincipal(ctx.home, flags.principal);
  checkApprover(pending, publicKeyString(principal));
  if (!askConsent({ ...pending, proposal, agent }, ctx.now())) {
    ctx.out(`not approved; nothing was signed\n`);
    return EXIT.error;
  }
  const token = encodeGrant(await consentGrant(principal, pending.consent, agent));
  saveGrantToken(ctx.home, token, ctx.now());
  // §E4: the other approvers approve the same request; the commit's receipt removes it.
  if (pending.consent.approvals === undefined) removeConsent(ctx.home, proposalId);
  ctx.out(
    `approved: consent grant ${grantId(token)} for proposal ${proposalId} is in the agent's wallet\n`,
  );
  ctx.err(
    `the agent can now run: ${commandLine([...cli.self, 'commit', pending.url, proposalId])}\n`,
  );
  if (flags.print === true) ctx.out(`${token}\n`);
  return EXIT.ok;
}

/**
 * The consent request this home saved for `proposalId`, the proposal the agent received that it
 * is about (checked against it, §6.6) and the agent key a consent grant will name.
 */
async function savedRequest(cli: Cli, proposalId: string) {
  const { ctx } = cli;
  const pending = loadConsent(ctx.home, proposalId);
  const agent = publicKeyString(await loadAgent(ctx.home));
  const proposal = consentProposal(proposalMemory(ctx.home, pending.service), pending, ctx.now());
  return { pending, proposal, agent };
}

/** Writes the saved request, checked against the proposal the agent received, for elsewhere. */
async function exportRequest(cli: Cli, proposalId: string, path: string): Promise<ExitCode> {
  const { ctx } = cli;
  const { pending, proposal, agent } = await savedRequest(cli, proposalId);
  writeConsentRequest(path, consentRequestFile(pending, proposal, agent), ctx.out);
  const file = path === '-' ? 'REQUEST_FILE' : path;
  ctx.err(
    [
      `${path === '-' ? 'wrote' : `wrote ${path}:`} the consent request for proposal ${proposalId}; nothing was signed`,
      `each approver, on their own device: ${commandLine([...cli.self, 'approve', '--request', file, '--out', 'approval.pg1'])}`,
      `then, here, for each approval they send back: ${commandLine([...cli.self, 'grants', 'add', 'approval.pg1'])}`,
      `and commit again: ${commandLine([...cli.self, 'commit', pending.url, proposalId])}`,
      '',
    ].join('\n'),
  );
  return EXIT.ok;
}

/**
 * A request exported on another device (§6.6 checks on what the file carries: the proposal's
 * hash recomputed, every field of the request matched against it), approved at this terminal
 * with this home's principal key or --principal; the grant goes to --out or stdout.
 */
async function approveRequest(cli: Cli, path: string, flags: ApproveFlags): Promise<ExitCode> {
  const { ctx } = cli;
  const request = await readConsentRequest(path);
  const approver = await loadPrincipal(ctx.home, flags.principal);
  const proposal = consentProposal(requestMemory(request), request, ctx.now());
  checkApprover(request, publicKeyString(approver));
  if (!askConsent({ ...request, proposal }, ctx.now())) {
    ctx.out(`not approved; nothing was signed\n`);
    return EXIT.error;
  }
  const token = encodeGrant(await consentGrant(approver, request.consent, request.agent));
  const id = grantId(token);
  if (flags.out === undefined) ctx.out(`${token}\n`);
  else writeTextFile(flags.out, `${token}\n`, { mode: 0o600 });
  ctx.err(
    [
      `approved: consent grant ${id} for proposal ${request.consent.proposal}${flags.out === undefined ? ' (the token above)' : `, in ${flags.out}`}`,
      `send it back; the agent's side adds it with: ${commandLine([...cli.self, 'grants', 'add', flags.out ?? 'APPROVAL_FILE'])}`,
      '',
    ].join('\n'),
  );
  return EXIT.ok;
}
