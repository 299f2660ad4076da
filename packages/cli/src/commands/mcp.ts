import {
  type ConsentRequest,
  type HttpEndpoint,
  parseHostPort,
  serveConsensusMcp,
  serveParleyMcp,
} from '@parley/mcp';
import type { Command } from 'commander';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { saveConsent } from '../home/consent-file.js';
import { loadAgent, loadPrincipal } from '../home/local-keys.js';
import { recordProposals } from '../home/proposal-file.js';
import { loadWallet, readGrantTokens } from '../home/wallet-file.js';
import { addBrowserFlags, type BrowserFlags, browserPolicyFrom } from '../serve/browser-flags.js';
import { commandLine } from '../shell-quote.js';

type McpFlags = BrowserFlags & {
  http?: string;
  principalConsent?: boolean;
  capabilityTools: boolean;
};

/**
 * `parley mcp URL…` exposes Parley services to an MCP host, and `parley consensus-mcp` the
 * consensus tools, over stdio (or Streamable HTTP with --http). On stdio, stdout belongs to the
 * MCP protocol: this command writes nothing else there.
 */
export function registerMcp(program: Command, cli: Cli): void {
  addBrowserFlags(
    program
      .command('mcp')
      .description('serve Parley services as MCP tools (stdio, or --http HOST:PORT)')
      .argument('<urls...>', 'the services, e.g. parley://127.0.0.1:7447')
      .option('--http <host:port>', 'serve Streamable HTTP instead of stdio')
      .option(
        '--principal-consent',
        'let the person at the MCP host approve consent requests with the principal key (elicitation)',
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
      .option('--http <host:port>', 'serve Streamable HTTP instead of stdio'),
  ).action(
    cli.act(async (flags: McpFlags) => {
      const running = await serveConsensusMcp(http(flags));
      return untilClosed(running);
    }),
  );
}

async function serveBridge(cli: Cli, urls: string[], flags: McpFlags): Promise<ExitCode> {
  const { ctx } = cli;
  const warn = (line: string) => ctx.err(`${line}\n`);
  const agent = await loadAgent(ctx.home);
  const running = await serveParleyMcp({
    urls,
    wallet: loadWallet(ctx.home, agent, ctx.now(), warn),
    ...(flags.principalConsent === true ? { principal: await loadPrincipal(ctx.home) } : {}),
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
        return `Ask your user to run \`${approve}\` at their terminal, then call parley_commit with proposal ${request.proposal.id} again.`;
      },
    },
    reloadGrants: () => readGrantTokens(ctx.home),
    capabilityTools: flags.capabilityTools,
    ...http(flags),
  });
  return untilClosed(running);
}

function http(flags: McpFlags): { http?: HttpEndpoint } {
  if (flags.http === undefined) {
    if (flags.cors !== undefined || flags.allowHost !== undefined) {
      throw new CliError('--cors and --allow-host concern Streamable HTTP; add --http HOST:PORT');
    }
    return {};
  }
  try {
    return { http: { ...parseHostPort(flags.http), ...browserPolicyFrom(flags) } };
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(
      error instanceof Error ? error.message : `--http ${flags.http} is not HOST:PORT`,
    );
  }
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
