import { CliError } from '../cli-error.js';

/** The variable a delegate's bearer token is read from when `--token-env` is not given. */
export const DEFAULT_TOKEN_ENV = 'PARLEY_TOKEN';

/**
 * The bearer token, read from an environment variable and never from a flag (a command line is
 * visible to every user of the machine). `--token-env VAR` insists on VAR; without it,
 * PARLEY_TOKEN is used when set, as the reference's bot does. Set but empty is refused: it would
 * silently mean no token at all.
 */
export function tokenFromEnv(env: NodeJS.ProcessEnv, flag: string | undefined): string | null {
  const name = flag ?? DEFAULT_TOKEN_ENV;
  const value = env[name];
  if (value === undefined) {
    if (flag !== undefined) throw new CliError(`--token-env ${name}: that variable is not set`);
    return null;
  }
  if (value === '') throw new CliError(`${name} is set but empty; unset it to go without a token`);
  return value;
}
