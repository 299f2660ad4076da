import { ConsentMismatchError } from '@parley/client';
import type { ErrorReply } from '@parley/protocol';
import type { Command } from 'commander';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { removeConsent, saveConsent } from '../home/consent-file.js';
import { describeHome } from '../home/describe-home.js';
import { proposalMemory, readProposals } from '../home/proposal-file.js';
import { recordReceipt } from '../home/receipt-file.js';
import { markConsentsConsumed } from '../home/wallet-file.js';
import { commandLine } from '../shell-quote.js';
import { explainUnauthorized } from '../verbs/acting-as.js';
import { addConnectionFlags, type ConnectionFlags } from '../verbs/connection-flags.js';
import type { OpenService } from '../verbs/open-service.js';
import { printReply } from '../verbs/print-reply.js';
import { send, withService } from '../verbs/with-service.js';

type CommitFlags = ConnectionFlags & { hash?: string };

/**
 * `parley commit URL PROPOSAL_ID`: §4.4, commits a proposal received by `parley intent`, by the
 * hash recorded then. On consent_required (§6.6) the consent request is checked against that
 * proposal and saved for `parley approve`; the command exits 3. A receipt marks the consent
 * grants for that proposal consumed in the wallet (§6.6: one-shot).
 */
export function registerCommit(program: Command, cli: Cli): void {
  addConnectionFlags(
    program
      .command('commit')
      .description("make a proposal happen (§4.4); may ask for the principal's consent (§6.6)")
      .argument('<url>', 'the service')
      .argument('<proposal>', 'the proposal id, as `parley intent` printed it')
      .option('--hash <hash>', 'the proposal hash, when the proposal was not received here'),
  ).action(
    cli.act(async (url: string, proposalId: string, flags: CommitFlags) =>
      withService(cli.ctx, url, flags, { needWallet: true }, async (open) => {
        const hash = flags.hash ?? readProposals(cli.ctx.home, open.service).get(proposalId)?.hash;
        if (hash === undefined) {
          throw new CliError(
            `no proposal ${proposalId} was received from ${open.service} in ${describeHome(cli.ctx)}; run \`parley intent\` first, or pass --hash`,
          );
        }
        const reply = await send(
          cli.ctx,
          open,
          { verb: 'COMMIT', proposal: proposalId, hash },
          flags,
        );
        const code = printReply(cli.ctx, reply, flags.json === true);
        explainUnauthorized(cli.ctx, open, reply);
        if (reply.kind === 'RECEIPT') {
          recordReceipt(cli.ctx.home, open.service, reply.receipt, cli.ctx.now());
          removeConsent(cli.ctx.home, proposalId);
          markConsentsConsumed(cli.ctx.home, hash, reply.receipt.id);
          if (reply.undone !== undefined) {
            cli.ctx.err(
              `this proposal was committed before and undone since (receipt ${reply.undone.receipt}); nothing was done now. For it to happen again, run the intent again.\n`,
            );
          } else if (reply.receipt.undo !== null) {
            cli.ctx.err(
              `undo with: ${commandLine([...cli.self, 'undo', url, reply.receipt.id])}\n`,
            );
          }
        }
        if (reply.kind === 'ERROR' && reply.consent !== undefined) {
          return keepConsentRequest(cli, open, reply);
        }
        return code;
      }),
    ),
  );
}

/** §6.6: saves a consent request that matches a proposal received from this service. */
function keepConsentRequest(
  cli: Cli,
  open: OpenService & { service: string },
  reply: ErrorReply,
): ExitCode {
  const consent = reply.consent;
  if (consent === undefined) return EXIT.error;
  try {
    if (consent.service !== open.service) {
      throw new ConsentMismatchError(
        'service',
        `it names service "${consent.service}", but this connection is to "${open.service}"`,
      );
    }
    proposalMemory(cli.ctx.home, open.service).checkConsent(consent);
  } catch (error) {
    if (!(error instanceof ConsentMismatchError)) throw error;
    cli.ctx.err(
      `the consent request does not match the proposal received (${error.message}); it is not kept for approval\n`,
    );
    return EXIT.error;
  }
  saveConsent(cli.ctx.home, {
    url: open.url,
    service: open.service,
    consent,
    message: reply.message,
  });
  const approve = [...cli.self, 'approve', consent.proposal];
  cli.ctx.err(
    [
      ...(consent.approvals === undefined
        ? ['The principal must approve this at their terminal:', `  ${commandLine(approve)}`]
        : [
            // docs/extensions.md §E4: each listed person, here or on a device of their own.
            'Each person listed approves at this terminal with their own key:',
            `  ${commandLine([...approve, '--principal', 'THEIR_KEY_FILE'])}`,
            'or on their own device, from a request file you send them:',
            `  ${commandLine([...approve, '--export', 'request.json'])}`,
          ]),
      'then commit again:',
      `  ${commandLine([...cli.self, 'commit', open.url, consent.proposal])}`,
      '',
    ].join('\n'),
  );
  return EXIT.consent;
}
