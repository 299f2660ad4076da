import { isPublicKey } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { localPublicKey } from '../home/local-keys.js';

/** `--to`: an "ed25519:…" key, or the local agent's key when absent or `agent`. */
export async function recipientKey(home: string, to: string | undefined): Promise<string> {
  if (to === undefined || to === 'agent') {
    const agent = await localPublicKey(home, 'agent');
    if (agent === undefined) {
      throw new CliError(
        'there is no local agent key; run `parley keys init` or pass --to ed25519:…',
      );
    }
    return agent;
  }
  const shown = to.slice(0, 60);
  if (!isPublicKey(to))
    throw new CliError(`--to must be an "ed25519:…" public key (got "${shown}")`);
  return to;
}
