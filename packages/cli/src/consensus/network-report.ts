import {
  outcomeLines,
  type PyObject,
  type PyValue,
  pyDumps,
  receiptToDict,
  VERDICT_V1,
  VERDICT_V2,
  type VerdictKind,
  writeReceipt,
} from '@parley/consensus';
import type { DelegateFailure, NetworkOutcome } from '@parley/consensus/net';
import { escapeServiceText } from '@parley/protocol';
import { EXIT, type ExitCode } from '../cli-error.js';
import { writeTextFile } from '../text-file.js';

export interface ReportOptions {
  readonly title: string;
  readonly json: boolean;
  /** Also write the receipt here. */
  readonly receiptPath?: string | undefined;
  /** How options are named in the table (default: their id or label). */
  readonly label?: (option: PyValue, index: number) => string;
  /** Where the roster came from, in words ("pinned to roster.json"). */
  readonly keys?: string | undefined;
}

/**
 * A decision across delegates for people (the decision, each option blocked or not, never whose
 * red line, the delegates, the receipt hash) or, with --json, the receipt itself. A failed run
 * names each delegate that failed; it has no receipt and exits 1.
 */
export function reportOutcome(
  outcome: NetworkOutcome,
  options: ReportOptions,
): { text: string; exitCode: ExitCode } {
  if (!outcome.ok)
    return {
      text: failureText(outcome.failures, outcome.delegates.length, options.json),
      exitCode: EXIT.error,
    };
  const { result, receipt } = outcome;
  if (options.receiptPath !== undefined) writeTextFile(options.receiptPath, writeReceipt(receipt));
  if (options.json) return { text: `${pyDumps(receiptToDict(receipt))}\n`, exitCode: EXIT.ok };
  const lines = outcomeLines(options.title, result, outcome.delegates.length, options.label);
  const who = outcome.delegates.map((d) => `${d.owner} ${d.url}`).join(', ');
  const binding = bindingText(receipt.verdict_kinds ?? {}, receipt.session?.nonce ?? null);
  lines.push(
    '',
    `Delegates: ${escapeServiceText(who)}`,
    `  (${escapeServiceText(binding)}; keys ${options.keys ?? 'as their cards gave them'})`,
    `receipt sha256: ${receipt.transcript_sha256}`,
  );
  if (options.receiptPath !== undefined) lines.push(`receipt written to ${options.receiptPath}`);
  return { text: `${lines.join('\n')}\n`, exitCode: EXIT.ok };
}

/** How the verdicts are bound: one session for all, or which owners' are verdict/0.1. */
function bindingText(kinds: Readonly<Record<string, VerdictKind>>, nonce: string | null): string {
  const owners = (kind: VerdictKind) => Object.keys(kinds).filter((o) => kinds[o] === kind);
  const [bound, plain, unsigned] = [owners(VERDICT_V2), owners(VERDICT_V1), owners('unsigned')];
  const session = nonce === null ? '' : ` for session ${nonce.slice(0, 12)}…`;
  if (plain.length === 0 && unsigned.length === 0)
    return `parley/0.2, every verdict signed${session}`;
  if (bound.length === 0) {
    return unsigned.length === 0
      ? 'parley/0.1, every verdict signed'
      : 'parley/0.1, unsigned verdicts';
  }
  const parts = [`parley/0.2${session} from ${bound.join(', ')}`];
  if (plain.length > 0)
    parts.push(`verdict/0.1 from ${plain.join(', ')}, which a replay could fake`);
  return parts.join('; ');
}

function failureText(failures: readonly DelegateFailure[], reached: number, json: boolean): string {
  if (json) {
    const list = failures.map((f) => ({ ...f }) as unknown as PyObject);
    return `${pyDumps({ status: 'failed', failures: list })}\n`;
  }
  const lines = [
    `No decision: ${failures.length === 1 ? 'a delegate' : `${failures.length} delegates`} failed, so nothing was decided and no receipt was made.`,
    ...failures.map((f) => {
      const who =
        f.owner === null ? (f.url ?? '?') : f.url === null ? f.owner : `${f.owner} at ${f.url}`;
      const where = f.option === null ? '' : ` (asked about option ${f.option + 1})`;
      return `  ${escapeServiceText(who)}: ${f.detail}${where} [${f.kind}]`;
    }),
    'A delegate that fails counts neither as acceptable nor as a red line: run again once every delegate answers.',
  ];
  if (reached === 0)
    lines.push('No delegate answered its card: check the URLs and that the delegates run.');
  return `${lines.join('\n')}\n`;
}
