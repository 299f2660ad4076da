import { GRANT_PREFIX } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { readGrantTokens, safeGrantId } from '../home/wallet-file.js';
import { readStdin } from '../standard-streams.js';

/** A grant token from the command line: the token, `-` for stdin, or a grant id in the wallet. */
export async function resolveToken(home: string, text: string): Promise<string> {
  if (text === '-') {
    const token = (await readStdin()).trim();
    if (token === '') throw new CliError('stdin is empty; pipe a pg1. grant token in');
    return token;
  }
  if (text.startsWith(GRANT_PREFIX)) return text;
  const matches = readGrantTokens(home).filter((token) => safeGrantId(token) === text);
  const [match] = matches;
  if (match === undefined) {
    throw new CliError(
      `"${text.slice(0, 60)}" is neither a pg1. token nor the id of a grant in the wallet`,
    );
  }
  return match;
}
