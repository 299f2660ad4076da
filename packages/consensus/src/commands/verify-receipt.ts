import { pyDumps } from '../py-json/dumps.js';
import { readReceipt } from '../receipt/receipt.js';
import {
  type CheckStatus,
  type ReceiptReport,
  type VerifyReceiptOptions,
  verifyReceipt,
} from '../receipt/verify-receipt.js';
import { type CommandOutput, printed, refused } from './output.js';

const MARKS: Readonly<Record<CheckStatus, string>> = {
  ok: 'OK     ',
  failed: 'FAILED ',
  skipped: 'SKIPPED',
  info: 'INFO   ',
};

/**
 * `parley verify-receipt FILE`: re-derives every claim of a receipt from its own record and says
 * what that does not prove. Exit 0 verified, 1 a check failed, 2 not a readable receipt.
 */
export async function verifyReceiptCommand(
  fileText: string,
  options: VerifyReceiptOptions = {},
): Promise<CommandOutput> {
  try {
    const receipt = readReceipt(fileText);
    const report = await verifyReceipt(receipt, options);
    const decision = receipt.decision === null ? 'none (deadlock)' : pyDumps(receipt.decision);
    const lines = [
      `Parley receipt check: ${receipt.title ?? '(untitled)'}`,
      `  status ${receipt.status}   decision ${decision}`,
      '',
      ...renderChecks(report),
      '',
      report.ok
        ? 'Result: VERIFIED. Every claim above re-derives from the record in this receipt.'
        : 'Result: FAILED.',
      '',
      'What this does not prove:',
      ...report.notProven.map((line) => `  - ${line}`),
    ];
    return printed(`${lines.join('\n')}\n`, report.ok ? 0 : 1);
  } catch (error) {
    return refused('verify-receipt', error);
  }
}

function renderChecks(report: ReceiptReport): string[] {
  const width = Math.max(...report.checks.map((c) => c.name.length));
  return report.checks.map((c) => `  ${MARKS[c.status]}  ${c.name.padEnd(width)}  ${c.detail}`);
}
