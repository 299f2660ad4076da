import { readFileSync } from 'node:fs';
import { type ConnectOptions, connect, type ParleyClient, type Wallet } from '@parley/client';
import { parseParleyUrl } from '@parley/transport';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { describeHome, otherHomeHint } from '../home/describe-home.js';
import { keyFileExists } from '../home/key-file.js';
import { keyPath, loadAgent } from '../home/local-keys.js';
import { reasonOf } from '../home/parley-home.js';
import { loadWallet } from '../home/wallet-file.js';
import { type ConnectionFlags, positiveInteger } from './connection-flags.js';

/** Announced in HELLO (§4.1). */
const AGENT_NAME = 'parley-cli';

/** A connection to one service with the local agent's wallet, when there is an agent key. */
export type OpenService = { client: ParleyClient; wallet: Wallet | undefined; url: string };

/**
 * Connects to `url` as the local agent: its key and unexpired grants from PARLEY_HOME when the
 * agent key exists (`needWallet` makes it required). Transport failures become TransportError,
 * which the CLI reports as a local failure (exit 2).
 */
export async function openService(
  ctx: CliContext,
  url: string,
  flags: ConnectionFlags,
  needWallet = false,
): Promise<OpenService> {
  parseParleyUrl(url);
  let wallet: Wallet | undefined;
  const hasAgent = keyFileExists(keyPath(ctx.home, 'agent'));
  if (needWallet && !hasAgent) {
    throw new CliError(
      `no agent key in ${describeHome(ctx)}; ${otherHomeHint(ctx)}, or make new keys with \`parley keys init\` and give the agent a grant from a principal the service trusts`,
    );
  }
  if (hasAgent) {
    const agent = await loadAgent(ctx.home);
    wallet = loadWallet(ctx.home, agent, ctx.now(), (line) => ctx.err(`warning: ${line}\n`));
  }
  const timeoutSeconds = positiveInteger(flags.timeout, '--timeout') ?? 30;
  const options: ConnectOptions = {
    agentName: AGENT_NAME,
    timeout: timeoutSeconds * 1000,
    connectTimeout: timeoutSeconds * 1000,
    ...(wallet === undefined ? {} : { wallet }),
    ...(flags.ca === undefined ? {} : { tls: { ca: readCa(flags.ca) } }),
    ...execOptions(url, flags.exec),
  };
  const client = await connect(url, options);
  return { client, wallet, url };
}

function readCa(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read the CA certificate ${path}: ${reasonOf(error)}`);
  }
}

/** stdio: runs `--exec` (split on spaces; no shell is involved). */
function execOptions(url: string, exec: string | undefined): Partial<ConnectOptions> {
  if (!url.toLowerCase().startsWith('stdio:')) {
    if (exec !== undefined) throw new CliError('--exec is only for stdio: URLs');
    return {};
  }
  const words = (exec ?? '').split(/\s+/).filter(Boolean);
  const [command, ...args] = words;
  if (command === undefined) {
    throw new CliError('stdio: needs the service command: --exec "parley serve calendar --stdio"');
  }
  return { command, args, stderr: 'inherit' };
}
