import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bearerTokenProblem, newBearerToken } from '@parley/mcp';
import { FileExistsError, writeFileAtomically } from '../atomic-file.js';
import { CliError } from '../cli-error.js';
import { isMissing, PRIVATE_FILE_MODE } from './json-file.js';
import { ensureFolder, reasonOf } from './parley-home.js';

/**
 * The bearer token of `parley mcp --http` and `parley consensus-mcp --http`, and of the host
 * entries `parley setup --http` writes: PARLEY_HOME/mcp-token, one line, mode 0600.
 */
export const MCP_TOKEN_FILE = 'mcp-token';

/** Any permission bit for group or others: a token must be the owner's alone, as a key is. */
const SHARED_BITS = 0o077;

/** Where a home keeps its MCP bearer token. */
export function mcpTokenPath(home: string): string {
  return join(home, MCP_TOKEN_FILE);
}

/** A bearer token and the file it is kept in. */
export type McpToken = { token: string; file: string };

/**
 * The token in `tokenFile` (`--token-file`, which must exist), else PARLEY_HOME/mcp-token, made
 * the first time (256 random bits from node:crypto) and the same on every start after, so the
 * host configs that carry it keep working. CliError for a file others can read or a bad token.
 */
export function mcpToken(home: string, tokenFile?: string): McpToken {
  if (tokenFile !== undefined) {
    const file = resolve(tokenFile);
    const token = readTokenFile(file);
    if (token === undefined) throw new CliError(`--token-file ${file} does not exist`);
    return { token, file };
  }
  const file = mcpTokenPath(home);
  const kept = readTokenFile(file);
  if (kept !== undefined) return { token: kept, file };
  ensureFolder(home);
  try {
    writeFileAtomically(file, `${newBearerToken()}\n`, {
      mode: PRIVATE_FILE_MODE,
      exclusive: true,
    });
  } catch (error) {
    // Another process made it first: use theirs.
    if (!(error instanceof FileExistsError)) throw error;
  }
  const made = readTokenFile(file);
  if (made === undefined) throw new CliError(`cannot read ${file}: it is gone`);
  return { token: made, file };
}

/** The home's token when it has one (made by an earlier start or setup); never makes one. */
export function keptMcpToken(home: string): string | undefined {
  return readTokenFile(mcpTokenPath(home));
}

/** The token in `file`, or undefined when there is no file; CliError when it cannot be used. */
function readTokenFile(file: string): string | undefined {
  let text: string;
  try {
    const mode = statSync(file).mode;
    if (process.platform !== 'win32' && (mode & SHARED_BITS) !== 0) {
      const octal = (mode & 0o777).toString(8).padStart(3, '0');
      throw new CliError(
        `refusing to use ${file}: it is readable by group or others (mode ${octal}); run \`chmod 600 ${file}\``,
      );
    }
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    if (isMissing(error)) return undefined;
    throw new CliError(`cannot read ${file}: ${reasonOf(error)}`);
  }
  const token = text.replace(/\r?\n$/, '');
  const problem = bearerTokenProblem(token);
  if (problem !== undefined) throw new CliError(`${file} holds no usable token: ${problem}`);
  return token;
}
