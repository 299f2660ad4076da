import {
  ConsensusError,
  partySheet,
  pyDumps,
  type RatificationView,
  RatifyError,
  ratificationView,
  readReceipt,
  signRatification,
} from '@parley/consensus';
import { ControllingTerminal } from '../approve/controlling-terminal.js';
import type { CliContext } from '../cli-context.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import { loadPrincipal } from '../home/local-keys.js';
import { readTextFile, writeTextFile } from '../text-file.js';
import { readParty } from './party-file.js';
import { ratificationText } from './ratification-text.js';

export type RatifyFlags = { party?: string; key?: string; out?: string; json?: boolean };

const YES = /^(y|yes)$/i;
const NO = /^(n|no)$/i;

/**
 * `parley consensus ratify RECEIPT SPEC --party NAME`: one person, at their own terminal, sees
 * the decision and what it means against their own sheet, and accepts or rejects it with a
 * signature from their own key. The question is asked on the controlling terminal, never read
 * from stdin: a process without a person at a terminal cannot obtain the signature. Nothing is
 * signed without an explicit yes or no.
 */
export async function runRatify(
  ctx: CliContext,
  receiptPath: string,
  specPath: string,
  flags: RatifyFlags,
): Promise<ExitCode> {
  if (flags.out === undefined && flags.json !== true) {
    throw new CliError('say where the signed answer goes: --out FILE, or --json to print it');
  }
  const receiptText = await readTextFile(receiptPath);
  const receipt = await withConsensusInput(receiptPath, () => readReceipt(receiptText));
  const party = readParty(await readTextFile(specPath), specPath, flags.party);
  const sheet = partySheet(party);
  const key = await loadPrincipal(ctx.home, flags.key);
  const view = await withConsensusInput(receiptPath, () => ratificationView(receipt, sheet));
  const terminal = ControllingTerminal.open('parley consensus ratify');
  let answer: boolean | null;
  try {
    terminal.write(ratificationText(view));
    answer = ask(terminal, view);
  } finally {
    terminal.close();
  }
  if (answer === null) {
    ctx.err('no answer; nothing was signed\n');
    return EXIT.error;
  }
  const acceptance = await withConsensusInput(receiptPath, () =>
    signRatification(receipt, sheet, answer, key),
  );
  const text = `${pyDumps({ ...acceptance }, { indent: 2 })}\n`;
  if (flags.out !== undefined) writeTextFile(flags.out, text);
  const said = answer ? 'accepted' : 'rejected';
  const where =
    flags.out === undefined ? '' : ` (in ${flags.out}; hand it to whoever seals the receipt)`;
  if (flags.json === true) ctx.out(text);
  else
    ctx.out(
      `${party.owner} ${said} the decision; the signed answer binds record ${view.transcriptHash.slice(0, 16)}…${where}\n`,
    );
  if (flags.json === true) ctx.err(`${party.owner} ${said} the decision${where}\n`);
  return answer ? EXIT.ok : EXIT.error;
}

/**
 * Yes, no, or no answer (nothing signed). A decision that crosses a red line can only be rejected.
 */
function ask(terminal: ControllingTerminal, view: RatificationView): boolean | null {
  if (!view.report.ok) {
    terminal.write('The receipt fails its checks: there is nothing to sign.\n');
    return null;
  }
  if (!view.holds) {
    const reply = terminal.ask('Sign a rejection? [y/N] ');
    return YES.test(reply) ? false : null;
  }
  const reply = terminal.ask('Accept this decision? [y/n] ');
  if (YES.test(reply)) return true;
  if (NO.test(reply)) return false;
  return null;
}

/** What `read` returns; a ConsensusError (an unusable file, or a refusal) names the file. */
export async function withConsensusInput<T>(path: string, read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ConsensusError) {
      // A refusal is an answer (1); a file that is not a receipt is unusable input (2).
      const code = error instanceof RatifyError ? EXIT.error : EXIT.local;
      throw new CliError(`${path}: ${error.message}`, code);
    }
    throw error;
  }
}
