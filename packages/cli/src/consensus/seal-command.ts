import {
  type Acceptance,
  type AgreementCheck,
  type Receipt,
  readAcceptance,
  readReceipt,
  sealReceipt,
  writeReceipt,
} from '@parley/consensus';
import { escapeServiceText } from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import { readPyJsonFile, readTextFile, writeTextFile } from '../text-file.js';
import { withConsensusInput } from './ratify-command.js';

export type SealFlags = { out?: string; json?: boolean };

/**
 * `parley consensus seal RECEIPT ANSWER...`: binds every owner's signed answer into the receipt
 * and says whether the agreement is unanimous. It fails closed: a rejection, a missing owner, an
 * unsigned answer or one under another key means no agreement (exit 1). The sealed receipt
 * records every answer either way; `parley verify-receipt` checks them.
 */
export async function runSeal(
  ctx: CliContext,
  receiptPath: string,
  answerPaths: readonly string[],
  flags: SealFlags,
): Promise<ExitCode> {
  if (flags.out === undefined && flags.json !== true) {
    throw new CliError('say where the sealed receipt goes: --out FILE, or --json to print it');
  }
  const receiptText = await readTextFile(receiptPath);
  const receipt = await withConsensusInput(receiptPath, () => readReceipt(receiptText));
  const answers: Acceptance[] = [];
  for (const path of answerPaths) {
    const value = await readPyJsonFile(path);
    const list = Array.isArray(value) ? value : [value];
    for (const item of list)
      answers.push(await withConsensusInput(path, () => readAcceptance(item)));
  }
  const sealed = await withConsensusInput(receiptPath, () => sealReceipt(receipt, answers));
  const text = writeReceipt(sealed.receipt);
  if (flags.out !== undefined) writeTextFile(flags.out, text);
  const check = sealed.agreement;
  const summary = check.ok
    ? `Unanimous: ${escapeServiceText(check.owners.join(', '))} each accepted this exact record with their own key.`
    : `Not agreed: ${escapeServiceText(whyNot(check, receipt, answers))}. Nothing binds anyone; the receipt records every answer given.`;
  const where = flags.out === undefined ? '' : `\nsealed receipt written to ${flags.out}`;
  if (flags.json === true) {
    ctx.out(text);
    ctx.err(`${summary}${where}\n`);
  } else {
    ctx.out(`${summary}${where}\n`);
  }
  return check.ok ? EXIT.ok : EXIT.error;
}

/** The agreement's reason, naming who gave no answer when that is the reason. */
function whyNot(check: AgreementCheck, receipt: Receipt, answers: readonly Acceptance[]): string {
  if (check.ok) return '';
  if (check.code !== 'missing_owner') return check.reason;
  const answered = new Set(answers.map((a) => a.owner));
  const owners = new Set(receipt.transcript.entries.flatMap((e) => e.verdicts.map((v) => v.owner)));
  return `no answer from ${[...owners].filter((o) => !answered.has(o)).join(', ')}`;
}
