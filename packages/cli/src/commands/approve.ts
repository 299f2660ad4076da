import {
  consentGrant,
  consentLines,
  encodeGrant,
  grantId,
  publicKeyString,
  renderConsent,
} from '@parley/protocol';
import type { Command } from 'commander';
import { checkPendingConsent } from '../approve/check-pending-consent.js';
import { ControllingTerminal } from '../approve/controlling-terminal.js';
import { EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { loadConsent, removeConsent } from '../home/consent-file.js';
import { loadAgent, loadPrincipal } from '../home/local-keys.js';
import { saveGrantToken } from '../home/wallet-file.js';
import { commandLine } from '../shell-quote.js';

type ApproveFlags = { principal?: string; print?: boolean };

const YES = /^(y|yes)$/i;

/**
 * `parley approve PROPOSAL_ID`: §6.6, the principal's consent step. It checks the saved consent
 * request against the proposal the agent received, shows that proposal's effects, cost, risk,
 * undo and expiry on the controlling terminal, asks yes/no there, and only then signs the
 * consent grant with the principal key and puts it in the agent's wallet. Without a controlling
 * terminal it refuses, so an agent process cannot obtain the signature.
 */
export function registerApprove(program: Command, cli: Cli): void {
  program
    .command('approve')
    .description('the principal approves a consent request at the terminal (§6.6)')
    .argument('<proposal>', 'the proposal id `parley commit` named')
    .option('--principal <file>', 'the principal key file (default PARLEY_HOME/principal.key)')
    .option('--print', 'also print the consent grant token on stdout')
    .action(
      cli.act(async (proposalId: string, flags: ApproveFlags) => {
        const { ctx } = cli;
        const pending = loadConsent(ctx.home, proposalId);
        const principal = await loadPrincipal(ctx.home, flags.principal);
        const agent = publicKeyString(await loadAgent(ctx.home));
        const proposal = checkPendingConsent(
          ctx.home,
          pending,
          publicKeyString(principal),
          ctx.now(),
        );
        const terminal = ControllingTerminal.open();
        let answer: string;
        try {
          // §6.6: the one consent rendering every Parley front end shows.
          const screen = renderConsent(
            {
              consent: pending.consent,
              proposal,
              service: pending.service,
              url: pending.url,
              agent,
              ...(pending.message === undefined ? {} : { message: pending.message }),
            },
            ctx.now(),
          );
          terminal.write(['', ...consentLines(screen), '', ''].join('\n'));
          answer = terminal.ask('Approve? [y/N] ');
        } finally {
          terminal.close();
        }
        if (!YES.test(answer)) {
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
      }),
    );
}
