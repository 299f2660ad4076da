import {
  type ConsentRequest,
  type HttpEndpoint,
  serveConsensusMcp,
  serveParleyMcp,
} from '@parley/mcp';
import type { Command } from 'commander';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { saveConsent } from '../home/consent-file.js';
import { loadAgent, loadPrincipal } from '../home/local-keys.js';
import { mcpToken } from '../home/mcp-token-file.js';
import { recordProposals } from '../home/proposal-file.js';
import { loadWallet, readGrantTokens } from '../home/wallet-file.js';
import { addBrowserFlags, type BrowserFlags, browserPolicyFrom } from '../serve/browser-flags.js';
import { hostPortFlag } from '../serve/host-port.js';
import { commandLine } from '../shell-quote.js';

type McpFlags = BrowserFlags & {
  http?: string;
  tokenFile?: string;
  principalConsent?: boolean;
  principal?: string;
  capabilityTools: boolean;
};

const TOKEN_FILE_HELP =
  'with --http: the bearer token clients must send is in this file (default PARLEY_HOME/mcp-token, made if missing)';

/**
 * `parley mcp URL…` exposes Parley services to an MCP host, and `parley consensus-mcp` the
 * consensus tools, over stdio (or Streamable HTTP with --http). On stdio, stdout belongs to the
 * MCP protocol: this command writes nothing else there. Over HTTP every request must carry
 * `Authorization: Bearer` with the home's token (PARLEY_HOME/mcp-token, or --token-file), which
 * `parley setup HOST --http` writes into the host's config: whoever can read that token can
 * spend what the agent's grants allow, as whoever can read agent.key can.
 */
export function registerMcp(program: Command, cli: Cli): void {
  addBrowserFlags(
    program
      .command('mcp')
      .description('serve Parley services as MCP tools (stdio, or --http HOST:PORT)')
      .argument('<urls...>', 'the services, e.g. parley://127.0.0.1:7447')
      .option('--http <host:port>', 'serve Streamable HTTP instead of stdio')
      .option('--token-file <file>', TOKEN_FILE_HELP)
      .option(
        '--principal-consent',
        'let the person at the MCP host approve consent requests with the principal key (elicitation)',
      )
      .option(
        '--principal <file>',
        'with --principal-consent: sign with this key file, e.g. one of the people an approvals caveat lists (default PARLEY_HOME/principal.key)',
      )
      .option(
        '--no-capability-tools',
        'offer only the five generic tools, not also one tool per capability',
      ),
  ).action(cli.act((urls: string[], flags: McpFlags) => serveBridge(cli, urls, flags)));
  addBrowserFlags(
    program
      .command('consensus-mcp')
      .description('serve parley_decide, parley_verify_receipt, parley_check_party as MCP tools')
      .option('--http <host:port>', 'serve Streamable HTTP instead of stdio')
      .option('--token-file <file>', TOKEN_FILE_HELP),
  ).action(
    cli.act(async (flags: McpFlags) => {
      const endpoint = http(cli, flags);
      const running = await serveConsensusMcp(endpoint.options);
      announce(cli, running, endpoint.tokenFile, 'parley consensus-mcp', undefined);
      return untilClosed(running);
    }),
  );
}

async function serveBridge(cli: Cli, urls: string[], flags: McpFlags): Promise<ExitCode> {
  const { ctx } = cli;
  const warn = (line: string) => ctx.err(`${line}\n`);
  const endpoint = http(cli, flags);
  if (flags.principal !== undefined && flags.principalConsent !== true) {
    throw new CliError('--principal goes with --principal-consent');
  }
  const agent = await loadAgent(ctx.home);
  const running = await serveParleyMcp({
    urls,
    wallet: loadWallet(ctx.home, agent, ctx.now(), warn),
    ...(flags.principalConsent === true
      ? { principal: await loadPrincipal(ctx.home, flags.principal) }
      : {}),
    // §6.6: without elicitation the person approves with `parley approve`, which reads these files.
    approvals: {
      record: (request: ConsentRequest) => {
        recordProposals(ctx.home, request.service, [request.proposal], ctx.now());
        saveConsent(ctx.home, {
          url: request.url,
          service: request.service,
          consent: request.consent,
          message: request.message,
        });
        const approve = commandLine([...cli.self, 'approve', request.proposal.id]);
        const again = `then call parley_commit with proposal ${request.proposal.id} again.`;
        const approvals = request.consent.approvals;
        if (approvals !== undefined) {
          // docs/extensions.md §E4: each listed person approves with their own key.
          const more = approvals.need - approvals.have;
          const elsewhere = commandLine([
            ...cli.self,
            'approve',
            request.proposal.id,
            '--export',
            'request.json',
          ]);
          return `${more} more of the ${approvals.of.length} people listed must approve: each runs \`${approve} --principal THEIR_KEY_FILE\` at their terminal, or approves on their own device from the file \`${elsewhere}\` writes; ${again}`;
        }
        return `Ask your user to run \`${approve}\` at their terminal, ${again}`;
      },
    },
    reloadGrants: () => readGrantTokens(ctx.home),
    capabilityTools: flags.capabilityTools,
    ...endpoint.options,
  });
  const tokenFileArgs = flags.tokenFile === undefined ? [] : ['--token-file', flags.tokenFile];
  announce(cli, running, endpoint.tokenFile, 'parley mcp', tokenFileArgs);
  return untilClosed(running);
}

/** The Streamable HTTP endpoint the flags ask for, with its bearer token, or stdio. */
function http(cli: Cli, flags: McpFlags): { options: { http?: HttpEndpoint }; tokenFile?: string } {
  if (flags.http === undefined) {
    if (
      flags.cors !== undefined ||
      flags.allowHost !== undefined ||
      flags.tokenFile !== undefined
    ) {
      throw new CliError(
        '--cors, --allow-host and --token-file concern Streamable HTTP; add --http HOST:PORT',
      );
    }
    return { options: {} };
  }
  const where = hostPortFlag(flags.http, '--http');
  const { token, file } = mcpToken(cli.ctx.home, flags.tokenFile);
  return {
    options: { http: { ...where, ...browserPolicyFrom(flags), token } },
    tokenFile: file,
  };
}

/**
 * Over HTTP: where it listens (stdout) and what a client must send (stderr, never the token);
 * `setupArgs` are the flags `parley setup --http` needs to write this server's entry.
 */
function announce(
  cli: Cli,
  running: { url?: string },
  tokenFile: string | undefined,
  name: string,
  setupArgs: string[] | undefined,
): void {
  if (running.url === undefined || tokenFile === undefined) return;
  cli.ctx.out(`listening ${running.url} (${name})\n`);
  const setup =
    setupArgs === undefined
      ? ''
      : `; ${commandLine([...cli.self, 'setup', 'HOST', '--http', new URL(running.url).host, ...setupArgs])} writes it into a host's config`;
  cli.ctx.err(`clients must send Authorization: Bearer with the token in ${tokenFile}${setup}\n`);
}

async function untilClosed(running: {
  closed: Promise<unknown>;
  close(): Promise<unknown>;
}): Promise<ExitCode> {
  const stop = () => void running.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await running.closed;
  return EXIT.ok;
}
