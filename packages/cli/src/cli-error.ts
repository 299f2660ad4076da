/** How the parley command ends (documented in the package README). */
export const EXIT = {
  /** Done: the reply was not an ERROR, the check passed, the approval was signed. */
  ok: 0,
  /** The service answered ERROR, a check failed, or the person declined. */
  error: 1,
  /** A local failure: bad usage or input, bad URL, unreachable host, TLS, files, no terminal. */
  local: 2,
  /** COMMIT needs the principal's consent: run `parley approve`, then commit again. */
  consent: 3,
  /** The service asked a question (CLARIFY, §4.3): answer with `--pick N` or a printed command. */
  clarify: 4,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * A local failure the user can act on. It is printed as one sentence on stderr (never a stack
 * trace) and ends the command with its exit code. Never sent to a peer.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode = EXIT.local) {
    super(message);
    this.exitCode = exitCode;
  }
}
